import type { TaskPlatform } from '../platform.js';
import { pollMidjourney } from './poll.js';
import { isMidjourneyUrl, midjourneyRoutes } from './routes.js';

/** Midjourney proxies (channel types 2 "Midjourney Proxy" and 5 "Midjourney Proxy Plus"). */
export const midjourney: TaskPlatform = {
  name: 'midjourney',
  routes: midjourneyRoutes,
  ownsUrl: isMidjourneyUrl,
  poll: pollMidjourney,
};
