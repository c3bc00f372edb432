import { CHANNEL_TYPE } from '@switchyard/shared';
import { OPENAI_PATHS } from '../openai/index.js';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';
import { withMistralToolIds } from './tool-ids.js';

/*
 * Mistral AI (type 42): OpenAI's chat and embeddings paths, but a strict body schema — an unknown field is a 422.
 * So OpenAI's spellings are mapped to Mistral's (seed → random_seed, max_completion_tokens → max_tokens), the stream
 * usage option is left out (Mistral always reports usage on its last chunk), history thinking is left out, tool call
 * ids are put in Mistral's form, and `user` (an end-user label that changes no answer) is not sent; embeddings'
 * `dimensions` is Mistral's output_dimension. Mistral's own fields (safe_prompt, random_seed, prompt_mode) pass
 * through.
 */

function rewrite(body: Record<string, unknown>): void {
  delete body.stream_options;
  delete body.user;
  if (body.seed !== undefined) {
    body.random_seed ??= body.seed;
    delete body.seed;
  }
  if (body.max_completion_tokens !== undefined) {
    body.max_tokens ??= body.max_completion_tokens;
    delete body.max_completion_tokens;
  }
  if (Array.isArray(body.messages)) {
    body.messages = withMistralToolIds(body.messages).map((m) => {
      if (!m || typeof m !== 'object' || !('reasoning_content' in m)) return m;
      const { reasoning_content: _thinking, ...rest } = m as Record<string, unknown>;
      return rest;
    });
  }
}

export const mistralProvider = compatibleProvider({
  name: 'mistral',
  types: [CHANNEL_TYPE.MISTRAL],
  modes: ['chat', 'embeddings'],
  url: (base, up) => versionedUrl(base, '/v1', OPENAI_PATHS[up.call.mode].slice(3)),
  rewrite: (body, up) => {
    if (up.call.mode === 'chat') return rewrite(body);
    delete body.user;
    if (body.dimensions !== undefined) {
      body.output_dimension ??= body.dimensions;
      delete body.dimensions;
    }
  },
  defaultTestModel: 'mistral-small-latest',
});
