import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { clusterMetrics } from '../cluster/metrics-client.js';

/*
 * GET /metrics for Prometheus, served only when METRICS_TOKEN is set and only to `Authorization: Bearer <token>`
 * (a scrape config's `authorization` or `bearer_token`). Under a primary the answer covers the whole node: the
 * worker that takes the scrape asks the primary, which merges every worker's figures.
 */

function sameToken(sent: string, token: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const metricsRoute: FastifyPluginAsync = async (app) => {
  const { config } = app.ctx;
  const token = config.metricsToken;
  app.get('/metrics', { config: { access: 'public' } }, async (request, reply) => {
    // Not served: a plain 404, not the console's page that other unknown paths get.
    if (!token) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
    const auth = request.headers.authorization ?? '';
    const sent = auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
    if (!sameToken(sent, token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain; charset=utf-8').send('unauthorized');
    }
    const metrics = app.ctx.metrics;
    const text = config.workerIndex > 0 ? await clusterMetrics() : await metrics.text();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
};
