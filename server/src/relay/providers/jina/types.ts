/** Jina's embeddings and rerank answers, as far as the relay reads them. */

export interface JinaUsage {
  total_tokens?: unknown;
  prompt_tokens?: unknown;
}

export interface JinaAnswer {
  model?: string;
  object?: string;
  usage?: JinaUsage;
  /** embeddings */
  data?: unknown[];
  /** rerank */
  results?: Array<{ index?: number; relevance_score?: number; document?: unknown }>;
  [key: string]: unknown;
}
