import { CHANNEL_TYPE } from '@switchyard/shared';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';

/*
 * DeepSeek (type 43): OpenAI's chat path; legacy completions (fill in the middle, prompt + suffix) only exist under
 * /beta. Its answers pass through as they are: reasoning_content reaches the client, and its cache hits
 * (prompt_cache_hit_tokens, also prompt_tokens_details.cached_tokens) are billed at the cache ratio by the usage reader.
 */

export const deepSeekProvider = compatibleProvider({
  name: 'deepseek',
  types: [CHANNEL_TYPE.DEEPSEEK],
  modes: ['chat', 'completions'],
  url: (base, up) =>
    up.call.mode === 'completions' ? `${base.replace(/\/(v1|beta)$/, '')}/beta/completions` : versionedUrl(base, '/v1', '/chat/completions'),
  defaultTestModel: 'deepseek-chat',
});
