import type { TaskPlatform } from '../platform.js';
import { pollSuno } from './poll.js';
import { sunoRoutes } from './routes.js';
import { PLATFORM } from './submit.js';

/** Suno (channel type 36, upstream = the open-source Suno-API server): music and lyrics tasks. */
export const sunoPlatform: TaskPlatform = {
  name: PLATFORM,
  routes: sunoRoutes,
  ownsUrl: (url) => url === '/suno' || url.startsWith('/suno/') || url.startsWith('/suno?'),
  poll: pollSuno,
};
