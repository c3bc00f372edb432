import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { listenLocal, type LocalServer } from '../test/mocks/local-server.js';

/*
 * Clients that read slowly, never read, go quiet, or hold many connections. A slow reader pauses the upstream (the
 * answer is never held in the gateway); one that reads nothing is cut off after CLIENT_STALL_TIMEOUT and billed for
 * what it was sent; connections that bring no request, or bring it too slowly, are closed. (Many streams at once:
 * concurrent-streams.test.ts.)
 */

const MODEL = 'gpt-4o';
const CHUNK_TEXT = 'x'.repeat(1000);
/** One OpenAI stream event of ~1 kB. */
const EVENT = Buffer.from(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [{ index: 0, delta: { content: CHUNK_TEXT }, finish_reason: null }] })}\n\n`);
const FINAL = Buffer.from(
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } })}\n\ndata: [DONE]\n\n`,
);

/** An upstream that writes `events` stream events as fast as its socket takes them, counting what it got out. */
interface FloodUpstream extends LocalServer {
  /** Bytes the upstream's socket has accepted so far for the current call. */
  sent(): number;
  events: number;
}

async function floodUpstream(): Promise<FloodUpstream> {
  let sent = 0;
  const up = {} as FloodUpstream;
  up.events = 20_000;
  const server = await listenLocal((_req, _body, res) => {
    sent = 0;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const writeMore = () => {
      while (i < up.events) {
        i++;
        sent += EVENT.length;
        if (!res.write(EVENT)) {
          res.once('drain', writeMore);
          return;
        }
      }
      res.end(FINAL);
    };
    writeMore();
  });
  return Object.assign(up, server, { sent: () => sent });
}

/** A chat stream request the test reads (or not) at its own pace. */
function openStream(base: string, key: string): Promise<http.IncomingMessage> {
  const body = JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] });
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      agent: false,
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when the server closes the socket, with how long it took. */
function closedWithin(socket: net.Socket): Promise<{ ms: number; data: string }> {
  const started = Date.now();
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString()));
  return new Promise((resolve) => socket.on('close', () => resolve({ ms: Date.now() - started, data })));
}

describe.each(testDatabases(['sqlite']))('slow and idle clients on $name', (database) => {
  let f: RelayFixture;
  let upstream: FloodUpstream;
  let key: string;

  beforeAll(async () => {
    upstream = await floodUpstream();
    f = await startRelay(database, { CLIENT_STALL_TIMEOUT: '1.5', CLIENT_HEADERS_TIMEOUT: '1', CLIENT_REQUEST_TIMEOUT: '2' });
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1.25 }));
    await f.channel({ type: 8, base_url: upstream.url, key: 'sk-up', models: MODEL });
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await upstream.close();
  });

  it('pauses the upstream while a client reads slowly, holding a bounded part of the answer, and delivers it whole', async () => {
    upstream.events = 60_000; // ~60 MB
    const memoryBefore = process.memoryUsage().arrayBuffers;
    const res = await openStream(f.baseUrl, key);
    res.pause();
    await sleep(1000);
    const heldWhilePaused = upstream.sent();
    const memoryHeld = process.memoryUsage().arrayBuffers - memoryBefore;
    // What left the upstream sits in the sockets' kernel buffers (loopback tunes them to several MB), not the answer.
    expect(heldWhilePaused, `upstream bytes out while paused: ${heldWhilePaused}`).toBeLessThan(24 * 1024 * 1024);
    // And little of it in this process (the gateway, the upstream and the client all live here; measured ~1 MB).
    expect(memoryHeld, `buffers grown while paused: ${memoryHeld}`).toBeLessThan(8 * 1024 * 1024);
    let received = 0;
    let text = '';
    res.on('data', (d: Buffer) => {
      received += d.length;
      if (d.length < 200) text += d.toString();
      else text = d.subarray(-200).toString();
    });
    // Listened for before any reading: on a fast machine the whole answer can arrive within the slow reads below.
    const ended = new Promise((r) => res.once('end', r));
    // Read slowly at first, then fully; the stall timer must not fire while the client keeps reading.
    for (let i = 0; i < 5; i++) {
      res.resume();
      await sleep(100);
      res.pause();
      await sleep(300);
    }
    res.resume();
    await ended;
    expect(received).toBeGreaterThan(60_000 * CHUNK_TEXT.length);
    expect(text).toContain('[DONE]');
  });

  it('cuts off a client that reads nothing for CLIENT_STALL_TIMEOUT and bills what it was sent', async () => {
    upstream.events = 50_000;
    const own = await f.token();
    const db = f.t.app.ctx.db.kysely;
    const logOf = () => db.selectFrom('logs').selectAll().where('type', '=', 2).where('token_id', '=', own.id).executeTakeFirst();
    const started = Date.now();
    const res = await openStream(f.baseUrl, own.key);
    res.pause();
    // The call ends on the gateway's side (the paused client does not even notice): its consume log appears.
    while (!(await logOf()) && Date.now() - started < 10_000) {
      await sleep(100);
      await f.flush();
    }
    const ms = Date.now() - started;
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(6000);
    res.destroy();
    const log = (await logOf())!;
    expect(log.content).toContain('客户端断开');
    expect(log.completion_tokens).toBeGreaterThan(0);
  });

  it('closes a connection that sends no request within CLIENT_HEADERS_TIMEOUT', async () => {
    const socket = net.connect(Number(new URL(f.baseUrl).port), '127.0.0.1');
    const { ms } = await closedWithin(socket);
    expect(ms).toBeLessThan(3000);
  });

  it('closes a slowloris whose headers trickle in', async () => {
    const socket = net.connect(Number(new URL(f.baseUrl).port), '127.0.0.1');
    const result = closedWithin(socket);
    const head = 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Slow: ';
    let i = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(i < head.length ? head[i++] : 'a');
    }, 100);
    const { ms, data } = await result;
    clearInterval(drip);
    expect(ms).toBeLessThan(3000);
    expect(data).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('closes a request whose body trickles in past CLIENT_REQUEST_TIMEOUT', async () => {
    const socket = net.connect(Number(new URL(f.baseUrl).port), '127.0.0.1');
    const result = closedWithin(socket);
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, 100);
    const { ms } = await result;
    clearInterval(drip);
    expect(ms).toBeLessThan(5000);
  });
});
