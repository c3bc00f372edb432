import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamClient } from './upstream.js';
import type { UpstreamRequest } from './types.js';
import { startBlackHole, type BlackHole } from '../test/unreachable.js';

/* RELAY_TIMEOUT bounds the whole wait for an upstream's answer, the connection included. */

describe('upstream client timeouts', () => {
  let hole: BlackHole;
  beforeAll(async () => {
    hole = await startBlackHole();
  });
  afterAll(() => hole.close());

  const call = (url: string): UpstreamRequest => ({ url: `${url}/v1/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

  it('gives up connecting to a host that never accepts after RELAY_TIMEOUT, not the default 10 s', async () => {
    const client = createUpstreamClient({ relayTimeoutSeconds: 1, streamingTimeoutSeconds: 60 });
    const started = Date.now();
    await expect(client.fetch(call(hole.url)).answer).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2500);
    await client.close();
  });

  it('gives up on a stream whose host never accepts after RELAY_TIMEOUT', async () => {
    const client = createUpstreamClient({ relayTimeoutSeconds: 1, streamingTimeoutSeconds: 60 });
    const started = Date.now();
    await expect(client.stream(call(hole.url)).head).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2500);
    await client.close();
  });
});
