import { CHANNEL_TYPE } from '@switchyard/shared';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';
import { DEEPSEEK_WIRE, deepSeekWire } from './wire.js';

/*
 * DeepSeek (type 43): OpenAI's chat path; legacy completions (fill in the middle, prompt + suffix) only exist under
 * /beta. Its answers pass through to OpenAI-format clients as they are: reasoning_content reaches the client, and its
 * cache hits (prompt_cache_hit_tokens) are billed at the cache ratio by the usage reader. Other clients' calls go
 * through DeepSeek's wire (wire.ts), which puts the cache hits where their conversions look.
 */

export const deepSeekProvider = compatibleProvider({
  name: 'deepseek',
  types: [CHANNEL_TYPE.DEEPSEEK],
  modes: ['chat', 'completions'],
  url: (base, up) =>
    up.call.mode === 'completions' ? `${base.replace(/\/(v1|beta)$/, '')}/beta/completions` : versionedUrl(base, '/v1', '/chat/completions'),
  wire: (up) => (up.call.mode === 'chat' && up.call.format !== 'openai' ? DEEPSEEK_WIRE : 'openai'),
  codecs: [deepSeekWire],
  defaultTestModel: 'deepseek-chat',
});
