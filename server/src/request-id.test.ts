import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { NO_ADDRESS_LIMITS } from './test/app.js';

/* Every answer names its request: X-Request-Id, the client's own when usable, the same id in the logs. */
describe('X-Request-Id', () => {
  let app: FastifyInstance;
  let url: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const config = loadConfig({ SQLITE_PATH: ':memory:', SESSION_SECRET: 'request-id-secret-request-id-secret', LOG_LEVEL: 'info', ...NO_ADDRESS_LIMITS });
    app = await buildApp(config, { logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('gives console answers and relay answers a new id each', async () => {
    const a = await fetch(`${url}/api/status`);
    const b = await fetch(`${url}/api/status`);
    const relay = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(relay.status).toBe(401);
    const ids = [a, b, relay].map((r) => r.headers.get('x-request-id') ?? '');
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(3);
  });

  it("keeps the client's id, and names the request by it in the log", async () => {
    const res = await fetch(`${url}/api/status`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a.42');
    const relay = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: '{}', headers: { 'x-request-id': 'client-call-1' } });
    expect(relay.headers.get('x-request-id')).toBe('client-call-1');
    expect(lines.some((l) => JSON.parse(l).reqId === 'lb-7f3a.42')).toBe(true);
  });

  it('replaces an id that is too long or holds what a log or header could be bent by', async () => {
    for (const sent of ['x'.repeat(200), 'a b', 'id"}{']) {
      const res = await fetch(`${url}/api/status`, { headers: { 'x-request-id': sent } });
      expect(res.headers.get('x-request-id')).toMatch(uuid);
    }
  });

  it('is set on injected requests too', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/status' });
    expect(String(res.headers['x-request-id'])).toMatch(uuid);
  });
});
