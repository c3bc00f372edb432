/*
 * Zhipu's v3 model API (POST /api/paas/v3/model-api/{model}/invoke and /sse-invoke), as far as the converters use
 * it. The model is named in the URL, not the body.
 */

export interface ZhipuV3Message {
  role: 'user' | 'assistant';
  content: string;
}

export interface ZhipuV3Request {
  prompt: ZhipuV3Message[];
  temperature?: number;
  top_p?: number;
  /** sse-invoke: each add event carries only the new text (the default, sent to be sure). */
  incremental?: boolean;
  /** "text": the answer as plain text rather than a JSON-encoded string. */
  return_type?: 'text' | 'json_string';
  request_id?: string;
}

export interface ZhipuV3Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** invoke's answer: the envelope, and the task with its choices once it succeeded. */
export interface ZhipuV3Response {
  code?: number;
  msg?: string;
  success?: boolean;
  data?: {
    request_id?: string;
    task_id?: string;
    task_status?: string;
    choices?: Array<{ role?: string; content?: string }>;
    usage?: ZhipuV3Usage;
  };
}

/** One sse-invoke event: add (text), finish (the end, with meta), error, interrupted. */
export interface ZhipuV3Event {
  event: string;
  id: string;
  data: string;
  /** finish: {"task_status", "usage", "task_id", "request_id"} as JSON text. */
  meta: string;
}
