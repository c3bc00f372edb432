import { CHANNEL_OTHER_DEFAULTS, CHANNEL_TYPE } from '@switchyard/shared';
import type { Mode, Provider } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { openAIRequest } from '../openai/index.js';
import { pathSegment } from '../../path-segment.js';

/** Azure OpenAI's deployment paths; the deployment is the model name without dots (gpt-3.5 → gpt-35). */
const TASKS: Record<Mode, string> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  moderations: 'moderations',
  images: 'images/generations',
  speech: 'audio/speech',
  transcriptions: 'audio/transcriptions',
  translations: 'audio/translations',
  rerank: 'rerank',
};

export const azureProvider: Provider = {
  name: 'azure',
  types: [CHANNEL_TYPE.AZURE],
  wire: () => 'openai',
  supports: (mode) => mode !== 'rerank',
  build(up) {
    const deployment = up.upstreamModel.replaceAll('.', '');
    const version = up.channel.other.trim() || CHANNEL_OTHER_DEFAULTS[CHANNEL_TYPE.AZURE];
    const url = `${resolveBaseUrl(up.channel)}/openai/deployments/${pathSegment(deployment)}/${TASKS[up.call.mode]}?api-version=${encodeURIComponent(version)}`;
    return openAIRequest(up, url, { 'api-key': up.key });
  },
};
