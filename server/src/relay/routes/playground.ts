import type { FastifyPluginAsync } from 'fastify';
import { authenticateSession } from '../../auth/guard.js';
import { sessionCaller } from '../auth.js';
import { bad, parseJsonCall, parseJsonObject } from '../calls.js';
import { fastifyExchange } from '../exchange.js';
import { relayCall } from '../pipeline.js';
import { guarded } from './endpoint.js';

/*
 * The console's playground: OpenAI's chat completions for the signed-in user (browser session, no API key), in a
 * group of their choice, relayed like any chat call but charged to the user's quota only.
 */

/** `group` is the gateway's own field (the chosen group): read here, never sent upstream. */
function takeGroup(raw: Buffer | undefined): { group: string; body: Buffer | undefined } {
  const json = parseJsonObject(raw);
  if (json.group === undefined || json.group === null) return { group: '', body: raw };
  if (typeof json.group !== 'string') throw bad('group 必须是字符串');
  const group = json.group.trim();
  delete json.group;
  return { group, body: Buffer.from(JSON.stringify(json)) };
}

export const playgroundRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  app.post('/pg/chat/completions', { config: { format: 'openai' as const } }, async (request, reply) => {
    const ex = fastifyExchange(request, reply);
    await guarded(ctx, ex, 'openai', async () => {
      const user = await authenticateSession(app, request);
      const { group, body } = takeGroup(ex.body);
      await relayCall(ctx, { call: parseJsonCall('chat', body), caller: sessionCaller(ctx, user, group), ex });
    });
  });
};
