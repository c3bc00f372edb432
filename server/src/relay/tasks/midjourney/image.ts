import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../../context.js';
import { relayedMediaHeaders } from '../../relayed-media.js';
import { findImage } from './rows.js';

/*
 * GET /mj/image/{id}: the image of a known task, fetched from the address its proxy reported (never one a client
 * gave) and streamed through as it arrives — an upscale is several MB and is never held whole. No key is asked,
 * as in the established gateway: the task id is the secret, and the address is what MjForwardUrlEnabled hides.
 * Fetched through the task's channel's outbound proxy when it has one (direct when the channel is gone). Served as an
 * image only (relayed-media.ts): this route is on the gateway's origin and needs no key, so a link to it is all it takes.
 */

/** The wait for the image's headers; the body then flows under the upstream client's idle timeout. */
const HEAD_TIMEOUT_MS = 30_000;

const fail = (reply: FastifyReply, status: number, error: string) =>
  reply.status(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ error }));

export async function streamImage(ctx: AppContext, mjId: string, reply: FastifyReply): Promise<void> {
  const image = await findImage(ctx.db.kysely, mjId);
  const url = image?.url;
  if (!image || !url || !/^https?:\/\//i.test(url)) {
    void fail(reply, 404, 'midjourney_task_not_found');
    return;
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), HEAD_TIMEOUT_MS);
  let res;
  try {
    const proxy = ctx.routing.channel(image.channelId)?.settings?.proxy;
    res = await ctx.relay.upstream.via(proxy).send({ url, method: 'GET', headers: { accept: 'image/*,*/*' } }, abort.signal);
  } catch (err) {
    ctx.log.warn({ err, mjId }, 'fetching a Midjourney image failed');
    void fail(reply, 502, 'http_get_image_failed');
    return;
  } finally {
    clearTimeout(timer);
  }
  if (res.statusCode !== 200) {
    // Discards what the upstream sent (its error page), up to undici's small limit, then lets the connection go.
    await res.body.dump().catch(() => undefined);
    void fail(reply, res.statusCode >= 400 ? res.statusCode : 502, `http_get_image_failed: HTTP ${res.statusCode}`);
    return;
  }
  const length = res.headers['content-length'];
  void reply.status(200).headers(relayedMediaHeaders(res.headers['content-type'], 'image'));
  if (typeof length === 'string') void reply.header('content-length', length);
  // A client that leaves mid-way stops the upstream download too (Fastify destroys the stream it was sending).
  // Not awaited: the route returns the reply, and Fastify streams it.
  void reply.send(res.body);
}
