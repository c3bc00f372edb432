import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';

/*
 * One asynchronous task platform (Midjourney proxies, Suno, later video): its folder under relay/tasks/ exports
 * one of these. Its routes answer clients in the platform's own shapes, submitting through submit.ts; its poll
 * brings unfinished tasks up to date through poll.ts and ends them through finish.ts. Nothing outside its folder
 * names the platform but the list in index.ts.
 */
export interface TaskPlatform {
  /** Short and unique: the poller job is named `task-poller:<name>`. */
  readonly name: string;
  /** The platform's client routes (registered at the server's root; body parsing and errors are the plugin's). */
  readonly routes: FastifyPluginAsync;
  /** Whether `url` is one of the platform's client paths (so the server treats it as a relay call, not a page). */
  ownsUrl(url: string): boolean;
  /** One round of polling every unfinished task of the platform. */
  poll(ctx: AppContext): Promise<void>;
}
