import { CHANNEL_TYPE } from '@switchyard/shared';
import { RelayError } from '../../errors.js';
import { compatibleProvider } from '../openai/compatible.js';

/*
 * Perplexity (type 27): chat only, at {base}/chat/completions (no version segment). Its answers pass through with
 * their citations and search results; it reports usage on its stream unasked, so the stream usage option (which it
 * does not document) is not sent. It has no tool calling, so a request that offers tools is refused rather than
 * answered as if the tools did not exist.
 */

const TOOL_FIELDS = ['tools', 'tool_choice', 'functions', 'function_call'] as const;

export const perplexityProvider = compatibleProvider({
  name: 'perplexity',
  types: [CHANNEL_TYPE.PERPLEXITY],
  modes: ['chat'],
  url: (base) => `${base}/chat/completions`,
  rewrite(body) {
    delete body.stream_options;
    for (const field of TOOL_FIELDS) {
      if (body[field] !== undefined && body[field] !== null) {
        throw new RelayError(400, `Perplexity 渠道不支持参数 ${field}：Perplexity 不支持工具调用`, 'unsupported_parameter', 'invalid_request_error');
      }
    }
  },
  defaultTestModel: 'sonar',
});
