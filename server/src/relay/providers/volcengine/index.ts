import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Mode } from '../../types.js';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';

/*
 * VolcEngine Ark / Doubao (type 45): OpenAI's shapes under /api/v3. A model named bot-… is an Ark application
 * (智能体), served at /api/v3/bots/chat/completions; Seedream image models at /api/v3/images/generations.
 */

const PATHS: Partial<Record<Mode, string>> = {
  chat: '/chat/completions',
  embeddings: '/embeddings',
  images: '/images/generations',
};

export const volcEngineProvider = compatibleProvider({
  name: 'volcengine',
  types: [CHANNEL_TYPE.VOLCENGINE],
  modes: ['chat', 'embeddings', 'images'],
  url(base, up) {
    const bot = up.call.mode === 'chat' && up.upstreamModel.startsWith('bot');
    return versionedUrl(base, '/api/v3', bot ? '/bots/chat/completions' : PATHS[up.call.mode]!);
  },
});
