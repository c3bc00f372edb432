import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './test/databases.js';
import { startTestApp, type TestApp } from './test/app.js';

/*
 * Fastify's own refusals never show its English text or codes: console paths answer the Chinese envelope, relay
 * paths an error in the caller's format. The codes a request can provoke: FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH,
 * FST_ERR_NOT_FOUND, FST_ERR_CTP_INVALID_MEDIA_TYPE, FST_ERR_CTP_INVALID_CONTENT_LENGTH, FST_ERR_CTP_INVALID_JSON_BODY,
 * FST_ERR_CTP_EMPTY_JSON_BODY (now no body), FST_ERR_CTP_BODY_TOO_LARGE; below Fastify, Node's parser refuses
 * malformed and oversized headers.
 */

const [sqlite] = testDatabases(['sqlite']);

const LEAKS = /FST_|Bad Request|Not Found|Invalid URL|not a valid url|Client Error|Content-Length|Unsupported Media|Body cannot/;

function expectEnvelope(status: number, body: string, expectedStatus: number, message: string): void {
  expect(status).toBe(expectedStatus);
  expect(JSON.parse(body)).toEqual({ success: false, message });
}

/** Sends raw bytes and returns what the server wrote before it closed the connection. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(bytes);
  });
}

function parseRaw(answer: string): { status: number; body: unknown } {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

describe('framework errors in the shape of each surface', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp(sqlite, { MAX_REQUEST_BODY_MB: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers an unknown console path with 404 and a Chinese message', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/option/' });
    expectEnvelope(res.statusCode, res.body, 404, '请求的接口不存在：POST /api/option/');
    const other = await t.call(null, { method: 'DELETE', url: '/nowhere?x=1' });
    expectEnvelope(other.statusCode, other.body, 404, '请求的接口不存在：DELETE /nowhere');
  });

  it('answers a malformed percent-encoded console path with the envelope (FST_ERR_BAD_URL)', async () => {
    for (const url of ['/api/token/%zz', '/api/%E0%A4%A', '/api/user/%']) {
      const res = await t.call(null, { method: 'GET', url });
      expectEnvelope(res.statusCode, res.body, 400, '请求地址格式错误');
    }
  });

  it('answers a malformed percent-encoded relay path in the caller format', async () => {
    const openai = await t.call(null, { method: 'GET', url: '/v1/models/%zz' });
    expect(openai.statusCode).toBe(400);
    expect(openai.json()).toMatchObject({ error: { message: '请求地址格式错误', type: 'invalid_request_error' } });
    const gemini = await t.call(null, { method: 'POST', url: '/v1beta/models/%zz:generateContent', payload: {} });
    expect(gemini.statusCode).toBe(400);
    expect(gemini.json()).toEqual({ error: { code: 400, message: '请求地址格式错误', status: 'INVALID_ARGUMENT' } });
    const claude = await t.call(null, { method: 'POST', url: '/v1/messages/%zz', payload: {} });
    expect(claude.statusCode).toBe(400);
    expect(claude.json()).toMatchObject({ type: 'error', error: { message: '请求地址格式错误' } });
  });

  it('answers a path parameter past the router limit in each shape (FST_ERR_MAX_PARAM_LENGTH)', async () => {
    const long = 'a'.repeat(3000);
    const console = await t.call(null, { method: 'GET', url: `/api/token/${long}` });
    expectEnvelope(console.statusCode, console.body, 414, '请求地址过长');
    // Gemini model paths may be long (the router takes 2,048 characters); past that no relay route matches, and the
    // relay's catch-all says so in the caller's format, without repeating the path.
    const gemini = await t.call(null, { method: 'POST', url: `/v1beta/models/${long}:generateContent`, payload: {} });
    expect(gemini.statusCode).toBe(414);
    expect(gemini.json()).toMatchObject({ error: { code: 414, message: '请求地址过长' } });
    const responses = await t.call(null, { method: 'GET', url: `/v1/responses/${long}` });
    expect(responses.statusCode).toBe(414);
    expect(responses.json()).toMatchObject({ error: { code: 'url_too_long', message: '请求地址过长' } });
    // Task ids: in each platform's own shape.
    for (const url of [`/mj/task/${long}/fetch`, `/relax/mj/task/${long}/image-seed`, `/mj/image/${long}`]) {
      const mj = await t.call(null, { method: 'GET', url });
      expect(mj.statusCode, url.slice(0, 20)).toBe(414);
      expect(mj.json()).toEqual({ code: 4, description: '请求地址过长', type: 'new_api_error' });
    }
    const suno = await t.call(null, { method: 'GET', url: `/suno/fetch/${long}` });
    expect(suno.statusCode).toBe(414);
    expect(suno.json()).toEqual({ code: 'url_too_long', message: '请求地址过长', data: null });
    for (const res of [gemini, responses, suno]) expect(res.body).not.toMatch(LEAKS);
    // A segment that is long only while escaped is the length the router sees, decoded.
    const escaped = await t.call(null, { method: 'GET', url: `/suno/fetch/${'%41'.repeat(1000)}` });
    expect(escaped.statusCode).toBe(401);
  });

  it('answers body and media-type errors on the console in Chinese', async () => {
    const post = (headers: Record<string, string>, payload: string) => t.call(null, { method: 'POST', url: '/api/user/login', headers, payload });
    let res = await post({ 'content-type': 'application/xml' }, '<x/>');
    expectEnvelope(res.statusCode, res.body, 415, '不支持的请求类型，请使用 application/json');
    res = await post({ 'content-type': '/;;' }, '{}');
    expectEnvelope(res.statusCode, res.body, 415, '不支持的请求类型，请使用 application/json');
    res = await post({ 'content-type': 'application/json', 'content-length': '99' }, '{}');
    expectEnvelope(res.statusCode, res.body, 400, '请求体长度与 Content-Length 不符');
    res = await post({ 'content-type': 'application/json' }, '{"username":');
    expectEnvelope(res.statusCode, res.body, 400, '请求体不是合法的 JSON');
    res = await post({ 'content-type': 'application/json' }, '{"__proto__":{"role":100},"username":"root"}');
    expectEnvelope(res.statusCode, res.body, 400, '请求体不是合法的 JSON');
    res = await post({ 'content-type': 'application/json' }, JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }));
    expectEnvelope(res.statusCode, res.body, 413, '请求体过大');
  });

  it('takes an empty Content-Type header for none, on every surface, on a real socket', async () => {
    const send = async (method: string, path: string) =>
      parseRaw(await raw(port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: \r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
    // Each is refused for what it lacks (a session, a key), not as a broken media type.
    expect(await send('DELETE', '/api/token/1')).toMatchObject({ status: 401, body: { success: false } });
    expect(await send('DELETE', '/v1/responses/resp_1')).toMatchObject({ status: 401, body: { error: { code: 'missing_api_key' } } });
    expect(await send('DELETE', '/v1/files/file-1')).toMatchObject({ status: 401, body: { error: { code: 'missing_api_key' } } });
    expect(await send('POST', '/mj/notify')).toMatchObject({ status: 401, body: { code: 4 } });
    expect(await send('POST', '/suno/fetch')).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
    // And through app.inject, which tests use everywhere else.
    const injected = await t.call(null, { method: 'DELETE', url: '/api/token/1', headers: { 'content-type': '' } });
    expect(injected.statusCode).toBe(401);
  });

  it('answers requests Node refuses to parse in each shape, on a real socket', async () => {
    const consoleBad = parseRaw(await raw(port, 'GET /api/status HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'));
    expect(consoleBad).toEqual({ status: 400, body: { success: false, message: '请求格式错误' } });
    const relayBad = parseRaw(await raw(port, 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'));
    expect(relayBad.status).toBe(400);
    expect(relayBad.body).toMatchObject({ error: { message: '请求格式错误', type: 'invalid_request_error' } });
    const claudeBad = parseRaw(await raw(port, 'POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'));
    expect(claudeBad.body).toMatchObject({ type: 'error', error: { message: '请求格式错误' } });
    const huge = parseRaw(await raw(port, `GET /api/status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(huge).toEqual({ status: 431, body: { success: false, message: '请求头过大' } });
    const garbage = await raw(port, 'NOT-HTTP\r\n\r\n');
    expect(parseRaw(garbage)).toEqual({ status: 400, body: { success: false, message: '请求格式错误' } });
  });

  it('never lets framework text through on any of these answers', async () => {
    const answers = await Promise.all([
      t.call(null, { method: 'GET', url: '/api/token/%zz' }),
      t.call(null, { method: 'GET', url: '/api/nope' }),
      t.call(null, { method: 'PUT', url: '/api/token/1', headers: { 'content-type': 'application/json' } }),
      t.call(null, { method: 'DELETE', url: '/api/token/1', headers: { 'content-type': 'application/json' } }),
      t.call(null, { method: 'POST', url: '/api/user/login', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' }),
    ]);
    for (const res of answers) expect(res.body).not.toMatch(LEAKS);
  });
});
