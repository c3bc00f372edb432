/** DashScope's native bodies (text embedding, text-to-image tasks), as far as the conversions use them. */

declare module '../../types.js' {
  interface ProviderWires {
    dashscope: true;
  }
}

export interface DashScopeEmbeddingRequest {
  model: string;
  input: { texts: string[] };
  parameters?: { dimension?: number; text_type?: string };
}

export interface DashScopeEmbeddingResponse {
  output?: { embeddings?: Array<{ text_index?: number; embedding?: number[] }> };
  usage?: { total_tokens?: number };
  request_id?: string;
}

export interface DashScopeImageRequest {
  model: string;
  input: { prompt: string; negative_prompt?: string };
  parameters: { size?: string; n?: number; seed?: number; style?: string; prompt_extend?: boolean; watermark?: boolean };
}

export type TaskStatus = 'PENDING' | 'RUNNING' | 'SUSPENDED' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'UNKNOWN';

export interface DashScopeImageResult {
  url?: string;
  orig_prompt?: string;
  actual_prompt?: string;
  /** A result that failed (the others may still have succeeded). */
  code?: string;
  message?: string;
  /** Added here, not by DashScope: the image's bytes when the client asked for b64_json. */
  b64_json?: string;
}

export interface DashScopeTaskAnswer {
  request_id?: string;
  output?: {
    task_id?: string;
    task_status?: TaskStatus;
    results?: DashScopeImageResult[];
    task_metrics?: { TOTAL?: number; SUCCEEDED?: number; FAILED?: number };
    code?: string;
    message?: string;
  };
  usage?: { image_count?: number };
}
