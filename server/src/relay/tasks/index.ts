import type { FastifyPluginAsync } from 'fastify';
import type { TaskPlatform } from './platform.js';
import { midjourney } from './midjourney/index.js';
import { sunoPlatform } from './suno/index.js';

export type { TaskPlatform } from './platform.js';

/** Every asynchronous task platform. Adding one is adding its folder and one line here. */
export const TASK_PLATFORMS: readonly TaskPlatform[] = [midjourney, sunoPlatform];

/** Whether a path belongs to a task platform's client routes. */
export function isTaskUrl(url: string): boolean {
  return TASK_PLATFORMS.some((p) => p.ownsUrl(url));
}

export const taskRoutes: FastifyPluginAsync = async (app) => {
  for (const platform of TASK_PLATFORMS) await app.register(platform.routes);
};
