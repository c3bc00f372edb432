/** The frames of iFlytek Spark's chat WebSocket API, as far as the conversions use them. */

declare module '../../types.js' {
  interface ProviderWires {
    spark: true;
  }
}

export interface SparkMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SparkFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The one frame the gateway sends after the handshake. */
export interface SparkRequest {
  header: { app_id: string; uid?: string };
  parameter: { chat: { domain: string; temperature?: number; max_tokens?: number; top_k?: number; [key: string]: unknown } };
  payload: { message: { text: SparkMessage[] }; functions?: { text: SparkFunction[] } };
}

export interface SparkTextItem {
  content?: string;
  role?: string;
  index?: number;
  content_type?: string;
  function_call?: { name?: string; arguments?: string };
}

export interface SparkUsage {
  question_tokens?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** One answer frame: header.status and payload.choices.status are 0 (first), 1 (more follow) or 2 (last). */
export interface SparkFrame {
  header?: { code?: number; message?: string; sid?: string; status?: number };
  payload?: {
    choices?: { status?: number; seq?: number; text?: SparkTextItem[] };
    usage?: { text?: SparkUsage };
  };
}
