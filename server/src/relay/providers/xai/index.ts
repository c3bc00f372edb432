import { CHANNEL_TYPE } from '@switchyard/shared';
import { OPENAI_PATHS } from '../openai/index.js';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';
import { xaiRequest } from './request.js';
import { XAI_WIRE, xaiWire } from './wire.js';

/*
 * xAI (type 48, grok-*): OpenAI's paths and Bearer key. Chat goes through xAI's own wire so reasoning tokens are
 * counted as completion (wire.ts); grok-3-mini's reasoning options are spelled its way (request.ts); image
 * generation passes through.
 */

export const xaiProvider = compatibleProvider({
  name: 'xai',
  types: [CHANNEL_TYPE.XAI],
  modes: ['chat', 'images'],
  url: (base, up) => versionedUrl(base, '/v1', OPENAI_PATHS[up.call.mode].slice(3)),
  wire: (up) => (up.call.mode === 'chat' ? XAI_WIRE : 'openai'),
  codecs: [xaiWire],
  rewrite: (body, up) => {
    if (up.call.mode === 'chat') xaiRequest(body);
  },
  defaultTestModel: 'grok-3-mini',
});
