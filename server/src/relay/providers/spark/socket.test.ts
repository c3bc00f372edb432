import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSparkStandIn, type SparkStandIn } from '../../../test/spark-stand-in.js';
import type { UpstreamRequest } from '../../types.js';
import { UpstreamCut, type UpstreamTimeouts } from '../../upstream.js';
import { signedSparkUrl } from './sign.js';
import { fetchSpark, streamSpark } from './socket.js';

/*
 * The WebSocket exchange against the stand-in, without the relay: what it makes of refused handshakes, silence before
 * and after the first frame, a consumer that pauses, and a call cancelled.
 */

const NO_LIMITS: UpstreamTimeouts = { relaySeconds: 0, streamingSeconds: 0 };

describe('the Spark WebSocket exchange', () => {
  let mock: SparkStandIn;

  beforeAll(async () => {
    mock = await startSparkStandIn();
  });

  afterAll(async () => {
    await mock.close();
  });

  function request(text: string, opts: { path?: string; now?: Date; secret?: string } = {}): UpstreamRequest {
    const url = signedSparkUrl(`${mock.url}${opts.path ?? '/v3.5/chat'}`, mock.apiKey, opts.secret ?? mock.apiSecret, opts.now);
    const frame = { header: { app_id: mock.appId }, parameter: { chat: { domain: 'generalv3.5' } }, payload: { message: { text: [{ role: 'user', content: text }] } } };
    return { url, method: 'GET', headers: {}, body: JSON.stringify(frame) };
  }

  it('reads an answer whole as the JSON array of its frames', async () => {
    const answer = await fetchSpark(request('hi'), NO_LIMITS).answer;
    expect(answer.statusCode).toBe(200);
    const frames = JSON.parse(answer.body.toString('utf8')) as Array<{ header: { status: number } }>;
    expect(frames.map((f) => f.header.status)).toEqual([0, 1, 2]);
  });

  it('answers a handshake dated more than 300 seconds off with the 403 iFlytek documents', async () => {
    const stale = new Date(Date.now() - 301_000);
    const answer = await fetchSpark(request('hi', { now: stale }), NO_LIMITS).answer;
    expect(answer.statusCode).toBe(403);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication' });
    const head = await streamSpark(request('hi', { secret: 'wrong' }), NO_LIMITS).head;
    expect(head.statusCode).toBe(401);
    expect(await head.text()).toBe('{"message":"HMAC signature does not match"}');
  });

  it('refuses a call whose first frame is an error with the status of its code', async () => {
    const head = await streamSpark(request('hi mock-rate-limited'), NO_LIMITS).head;
    expect(head.statusCode).toBe(429);
    expect(JSON.parse(await head.text())).toMatchObject({ header: { code: 11202 } });
    const whole = await fetchSpark(request('hi mock-output-audit'), NO_LIMITS).answer;
    // Read whole, an error after the first words still refuses the call: nothing reached the client yet.
    expect(whole.statusCode).toBe(400);
  });

  it('gives up on an upstream that sends no frame within RELAY_TIMEOUT (not reached), and cuts one silent after its first frame', async () => {
    await expect(fetchSpark(request('hi mock-silent'), { relaySeconds: 1, streamingSeconds: 0 }).answer).rejects.not.toBeInstanceOf(UpstreamCut);
    await expect(streamSpark(request('hi mock-silent'), { relaySeconds: 1, streamingSeconds: 0 }).head).rejects.toThrow();
    await expect(fetchSpark(request('hi mock-stall'), { relaySeconds: 0, streamingSeconds: 1 }).answer).rejects.toBeInstanceOf(UpstreamCut);
  });

  it('cannot reach a port where nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const req = { ...request('hi'), url: signedSparkUrl(`ws://127.0.0.1:${port}/v3.5/chat`, 'k', 's') };
    await expect(fetchSpark(req, NO_LIMITS).answer).rejects.toThrow();
  });

  it('holds frames while the consumer is paused and delivers them all on resume', async () => {
    const head = await streamSpark(request('hi'), NO_LIMITS).head;
    const events: string[] = [];
    let resumed = false;
    const end = await head.consume((chunk) => {
      events.push(chunk.toString('utf8'));
      if (!resumed) {
        resumed = true;
        setTimeout(() => head.resume(), 50);
        return false;
      }
      return true;
    });
    expect(end).toBe('complete');
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.startsWith('data: {') && e.endsWith('}\n\n'))).toBe(true);
  });

  it('ends the body of a consumer paused for good when the call is cancelled', async () => {
    const call = streamSpark(request('hi'), NO_LIMITS);
    const head = await call.head;
    const end = head.consume(() => {
      setTimeout(() => call.cancel(), 50);
      return false;
    });
    expect(await end).toBe('failed');
  });

  it('ends the body as failed when the call is cancelled mid-stream, and the stand-in sees the socket close', async () => {
    mock.frameDelayMs = 200;
    try {
      const call = streamSpark(request('hi'), NO_LIMITS);
      const head = await call.head;
      const end = await head.consume(() => {
        call.cancel();
        return true;
      });
      expect(end).toBe('failed');
      const deadline = Date.now() + 10_000;
      while (mock.live() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(mock.live()).toBe(0);
    } finally {
      mock.frameDelayMs = 1;
    }
  });
});
