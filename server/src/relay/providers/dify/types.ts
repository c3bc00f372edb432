/** Dify's chat-messages API (ChatFlow and chat apps), as far as the relay reads and writes it. */

/** A file attached to a chat message: uploaded first (local_file) or fetched by Dify (remote_url). */
export type DifyFile =
  | { type: 'image'; transfer_method: 'remote_url'; url: string }
  | { type: 'image'; transfer_method: 'local_file'; upload_file_id: string };

/** An image still to be uploaded before the call is sent (a data: URL), kept in the body until build replaces it. */
export interface PendingUpload {
  type: 'image';
  transfer_method: 'local_file';
  /** The image as a data: URL. */
  upload: string;
}

export interface DifyRequest {
  inputs: Record<string, unknown>;
  query: string;
  response_mode: 'streaming' | 'blocking';
  user: string;
  conversation_id?: string;
  files?: Array<DifyFile | PendingUpload>;
  auto_generate_name?: boolean;
}

export interface DifyUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  total_tokens?: unknown;
  [key: string]: unknown;
}

/** A blocking answer. */
export interface DifyAnswer {
  event?: string;
  message_id?: string;
  conversation_id?: string;
  answer?: string;
  created_at?: number;
  metadata?: { usage?: DifyUsage; retriever_resources?: unknown[] };
}

/** One streamed event (data: of each SSE event; `event` names its kind). */
export interface DifyEvent {
  event?: string;
  message_id?: string;
  answer?: string;
  created_at?: number;
  metadata?: { usage?: DifyUsage };
  /** error events */
  status?: number;
  code?: string;
  message?: string;
  /** workflow_* and node_* events */
  workflow_run_id?: string;
  data?: { workflow_id?: string; node_type?: string; title?: string; status?: string; error?: string | null };
}

/** Dify's error body (HTTP errors and the upload endpoint). */
export interface DifyErrorBody {
  code?: unknown;
  message?: unknown;
  status?: unknown;
}
