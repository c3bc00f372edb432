import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { startConnectProxy } from '../../test/proxy-stand-ins.js';
import { NO_SETTINGS } from '../channel-settings.js';
import { createUpstreamClient } from '../upstream.js';
import { callTaskUpstream, MAX_ANSWER_BYTES } from './upstream-call.js';

/* Task upstream calls: read whole, within a deadline, never more than a task answer can be, through the channel's proxy. */
describe('task upstream calls', () => {
  let server: http.Server;
  let url = '';
  const upstream = createUpstreamClient({ relayTimeoutSeconds: 0, streamingTimeoutSeconds: 60 });
  const ctx = { relay: { upstream } } as unknown as AppContext;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const more = () => {
          while (sent < MAX_ANSWER_BYTES + 4 * chunk.length) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
        res.on('error', () => {});
        return;
      }
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2_000);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"code":1,"result":"abc"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await upstream.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string, timeoutMs = 5_000) => callTaskUpstream(ctx, {}, { url: `${url}${path}`, method: 'GET', headers: {} }, timeoutMs);

  it('reads a JSON answer', async () => {
    expect(await get('/ok')).toEqual({ kind: 'answer', status: 200, text: '{"code":1,"result":"abc"}', json: { code: 1, result: 'abc' } });
  });

  it('gives up on an answer larger than any task answer, cleanly', async () => {
    expect(await get('/huge')).toEqual({ kind: 'unreachable', reason: 'upstream answer too large' });
    // The client still works after the cut connection.
    expect((await get('/ok')).kind).toBe('answer');
  });

  it('gives up at its deadline', async () => {
    expect(await get('/slow', 200)).toEqual({ kind: 'unreachable', reason: 'upstream timeout' });
  });

  it('goes through the channel’s proxy when it has one', async () => {
    const proxy = await startConnectProxy();
    try {
      const channel = { settings: { ...NO_SETTINGS, proxy: proxy.url } };
      expect(await callTaskUpstream(ctx, channel, { url: `${url}/ok`, method: 'GET', headers: {} }, 5_000)).toMatchObject({ kind: 'answer', status: 200 });
      expect(proxy.seen.map((s) => s.target)).toEqual([new URL(url).host]);
    } finally {
      await proxy.close();
    }
  });
});
