/** AI Proxy's knowledge-base chat API (POST /api/library/ask), as far as the relay writes and reads it. */

export interface LibraryRequest {
  model: string;
  query: string;
  libraryId: string;
  stream: boolean;
}

export interface LibraryDocument {
  title?: string;
  url?: string;
}

/** A whole answer; a refusal comes as success false with errCode and message (HTTP 200). */
export interface LibraryAnswer {
  success?: boolean;
  answer?: string;
  documents?: LibraryDocument[];
  errCode?: unknown;
  message?: unknown;
}

/** One streamed event. */
export interface LibraryEvent {
  content?: string;
  finish?: boolean;
  model?: string;
  documents?: LibraryDocument[];
}
