/** PaLM 2's legacy chat API (v1beta2 generateMessage), as far as the relay writes and reads it. */

export interface PalmMessage {
  /** "0" for the user, "1" for the model (any stable label per side works; these are the established ones). */
  author: string;
  content: string;
}

export interface PalmRequest {
  prompt: { context?: string; messages: PalmMessage[] };
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
}

export interface PalmAnswer {
  candidates?: Array<{ author?: string; content?: string }>;
  messages?: PalmMessage[];
  /** Why no candidate came (safety and other filters). */
  filters?: Array<{ reason?: string; message?: string }>;
}
