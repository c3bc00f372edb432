/*
 * Qianfan v1 serves each model at an endpoint of its own name. Names the console offers and the older ERNIE-Bot
 * names map through this table; any other model is taken as its endpoint, lowercased (Qianfan's names for newer
 * models, and custom deployments).
 */

const CHAT_ENDPOINTS: Readonly<Record<string, string>> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-4.0-8K-Latest': 'ernie-4.0-8k-latest',
  'ERNIE-4.0-8K-Preview': 'ernie-4.0-8k-preview',
  'ERNIE-4.0-Turbo-8K': 'ernie-4.0-turbo-8k',
  'ERNIE-4.0-Turbo-128K': 'ernie-4.0-turbo-128k',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-3.5-8K-0205': 'ernie-3.5-8k-0205',
  'ERNIE-3.5-8K-1222': 'ernie-3.5-8k-1222',
  'ERNIE-3.5-128K': 'ernie-3.5-128k',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K': 'ernie-lite-8k',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'ERNIE-Character-8K': 'ernie-char-8k',
  'ERNIE-Functions-8K': 'ernie-func-8k',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-Bot': 'completions',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed': 'ernie_speed',
  'BLOOMZ-7B': 'bloomz_7b1',
  'Llama-2-7b-chat': 'llama_2_7b',
  'Llama-2-13b-chat': 'llama_2_13b',
  'Llama-2-70b-chat': 'llama_2_70b',
};

const EMBEDDING_ENDPOINTS: Readonly<Record<string, string>> = {
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

export function chatEndpoint(model: string): string {
  return CHAT_ENDPOINTS[model] ?? model.toLowerCase();
}

export function embeddingEndpoint(model: string): string {
  return EMBEDDING_ENDPOINTS[model] ?? model.toLowerCase();
}
