import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BedrockMock, type SigV4Input, sigV4, startBedrockMock } from '../../../test/mocks/bedrock.js';
import { parseAwsKey } from './key.js';
import { signBedrockRequest } from './request.js';
import { bedrockEventStreamToSse } from './stream.js';

/*
 * The mock's own SigV4 verifier, checked against AWS's published Signature Version 4 test suite (credentials
 * AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 2015-08-30T12:36:00Z, us-east-1, service "service").
 */

const SUITE_SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const AMZ_DATE = '20150830T123600Z';
const EMPTY_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const STS_TOKEN =
  'AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==';

function suite(method: string, extra: Array<[string, string]>, opts: { query?: string; body?: string } = {}): SigV4Input {
  const headers: Array<[string, string]> = [['Host', 'example.amazonaws.com'], ...extra, ['X-Amz-Date', AMZ_DATE]];
  return {
    method,
    path: '/',
    query: opts.query ?? '',
    headers,
    signedHeaders: [...new Set(headers.map(([n]) => n.toLowerCase()))],
    payloadHash: createHash('sha256').update(opts.body ?? '').digest('hex'),
    amzDate: AMZ_DATE,
    region: 'us-east-1',
    service: 'service',
    secretAccessKey: SUITE_SECRET,
  };
}

describe('the mock SigV4 verifier against the AWS test suite', () => {
  it('get-vanilla: canonical request, string to sign and signature', () => {
    const r = sigV4(suite('GET', []));
    expect(r.canonicalRequest).toBe(`GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:${AMZ_DATE}\n\nhost;x-amz-date\n${EMPTY_HASH}`);
    expect(r.stringToSign).toBe(
      `AWS4-HMAC-SHA256\n${AMZ_DATE}\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63`,
    );
    expect(r.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it.each([
    ['post-vanilla', suite('POST', []), '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
    ['get-vanilla-query-order-key-case', suite('GET', [], { query: 'Param2=value2&Param1=value1' }), 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
    ['post-header-key-sort', suite('POST', [['My-Header1', 'value1']]), 'c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c'],
    [
      'get-header-value-trim',
      suite('GET', [
        ['My-Header1', ' value1'],
        ['My-Header2', '"a   b   c"'],
      ]),
      'acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736',
    ],
    [
      'post-x-www-form-urlencoded',
      suite('POST', [['Content-Type', 'application/x-www-form-urlencoded']], { body: 'Param1=value1' }),
      'ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a',
    ],
    ['post-sts-header-before', suite('POST', [['X-Amz-Security-Token', STS_TOKEN]]), '85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead'],
  ])('%s', (_name, input, signature) => {
    expect(sigV4(input).signature).toBe(signature);
  });

  it('signs what the product signer signs (same date, path with an encoded model id)', async () => {
    const key = parseAwsKey('AKIDEXAMPLE|' + SUITE_SECRET + '|us-east-1');
    const url = 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke';
    const body = '{"anthropic_version":"bedrock-2023-05-31","max_tokens":1,"messages":[]}';
    const headers = await signBedrockRequest(url, { 'content-type': 'application/json', accept: 'application/json' }, body, key, new Date('2015-08-30T12:36:00Z'));
    const auth = /SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(headers.authorization)!;
    const mine = sigV4({
      method: 'POST',
      path: new URL(url).pathname,
      query: '',
      headers: Object.entries(headers),
      signedHeaders: auth[1].split(';'),
      payloadHash: createHash('sha256').update(body).digest('hex'),
      amzDate: headers['x-amz-date'],
      region: 'us-east-1',
      service: 'bedrock',
      secretAccessKey: SUITE_SECRET,
    });
    expect(mine.canonicalRequest.split('\n')[1]).toBe('/model/anthropic.claude-3-haiku-20240307-v1%253A0/invoke');
    expect(mine.signature).toBe(auth[2]);
  });
});

describe('the Bedrock mock refuses what Bedrock refuses', () => {
  const creds = { accessKeyId: 'AKIAMOCKBEDROCK00001', secretAccessKey: 'mock/secret+key/0000000000000000000000', region: 'us-west-2' };
  const key = parseAwsKey(`${creds.accessKeyId}|${creds.secretAccessKey}|${creds.region}`);
  const good = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
  let mock: BedrockMock;

  beforeAll(async () => {
    mock = await startBedrockMock(creds);
  });
  afterAll(() => mock.close());

  async function send(body: unknown, opts: { model?: string; tamper?: (h: Record<string, string>) => void; sendBody?: string; signKey?: typeof key } = {}) {
    const url = `${mock.url}/model/${encodeURIComponent(opts.model ?? 'anthropic.claude-3-haiku-20240307-v1:0')}/invoke`;
    const text = JSON.stringify(body);
    const headers = await signBedrockRequest(url, { 'content-type': 'application/json', accept: 'application/json' }, text, opts.signKey ?? key);
    opts.tamper?.(headers);
    const res = await request(url, { method: 'POST', headers, body: opts.sendBody ?? text });
    return { status: res.statusCode, errorType: res.headers['x-amzn-errortype'], json: (await res.body.json()) as Record<string, unknown> };
  }

  it('answers a correctly signed call', async () => {
    const r = await send(good);
    expect(r.status).toBe(200);
    expect(r.json.model).toBe('claude-3-haiku-20240307');
  });

  it('refuses a tampered signature with InvalidSignatureException', async () => {
    const r = await send(good, {
      tamper: (h) => {
        h.authorization = h.authorization.replace(/Signature=([0-9a-f])/, (_m, c: string) => `Signature=${c === '0' ? '1' : '0'}`);
      },
    });
    expect(r.status).toBe(403);
    expect(String(r.errorType)).toMatch(/^InvalidSignatureException:/);
    expect(r.json.message).toMatch(/^The request signature we calculated does not match the signature you provided/);
  });

  it('refuses a body changed after signing', async () => {
    const r = await send(good, { sendBody: JSON.stringify({ ...good, max_tokens: 65 }) });
    expect(r.status).toBe(403);
    expect(String(r.errorType)).toMatch(/^InvalidSignatureException:/);
  });

  it('refuses a signature made with another secret', async () => {
    const r = await send(good, { signKey: { ...key, secretAccessKey: 'not-the-secret' } });
    expect(r.status).toBe(403);
    expect(String(r.errorType)).toMatch(/^InvalidSignatureException:/);
  });

  it('refuses an unknown access key', async () => {
    const r = await send(good, { signKey: { ...key, accessKeyId: 'AKIAUNKNOWN' } });
    expect(r.status).toBe(403);
    expect(String(r.errorType)).toMatch(/^UnrecognizedClientException:/);
  });

  it('refuses a signature scoped to another Region', async () => {
    const r = await send(good, { signKey: { ...key, region: 'eu-west-1' } });
    expect(r.status).toBe(403);
    expect(r.json.message).toMatch(/valid region/);
  });

  it.each([
    ['a model field', { ...good, model: 'claude-3-haiku-20240307' }, 'extraneous key [model] is not permitted'],
    ['a stream field', { ...good, stream: true }, 'extraneous key [stream] is not permitted'],
    ['no anthropic_version', { max_tokens: 64, messages: good.messages }, 'required key [anthropic_version] not found'],
    ['another anthropic_version', { ...good, anthropic_version: '2023-06-01' }, 'anthropic_version'],
    ['no max_tokens', { anthropic_version: good.anthropic_version, messages: good.messages }, 'required key [max_tokens] not found'],
    ['no messages', { anthropic_version: good.anthropic_version, max_tokens: 64 }, 'required key [messages] not found'],
  ])('refuses a body with %s (400 ValidationException)', async (_name, body, text) => {
    const r = await send(body);
    expect(r.status).toBe(400);
    expect(String(r.errorType)).toMatch(/^ValidationException:/);
    expect(r.json.message).toContain(text);
  });

  it('refuses an unknown model id', async () => {
    const r = await send(good, { model: 'mock-no-such-case' });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('The provided model identifier is invalid.');
  });
});

describe('the Bedrock mock with a script', () => {
  const creds = { accessKeyId: 'AKIAMOCKBEDROCK00002', secretAccessKey: 'mock/secret+key/1111111111111111111111', region: 'us-east-1' };
  const key = parseAwsKey(`${creds.accessKeyId}|${creds.secretAccessKey}|${creds.region}`);
  const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
  const events = [
    'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
    'event: message_stop\ndata: {"type":"message_stop"}',
  ];
  let mock: BedrockMock;
  const scripted: string[] = [];

  beforeAll(async () => {
    mock = await startBedrockMock({
      ...creds,
      script: (rec) => {
        scripted.push(String(rec.json?.max_tokens));
        return events;
      },
    });
  });
  afterAll(() => mock.close());

  async function send(stream: boolean, tamper = false) {
    const target = `${mock.url}/model/${encodeURIComponent('anthropic.claude-3-haiku-20240307-v1:0')}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;
    const headers = await signBedrockRequest(target, { 'content-type': 'application/json' }, body, key);
    if (tamper) headers.authorization = headers.authorization.replace(/Signature=([0-9a-f])/, (_m, c: string) => `Signature=${c === '0' ? '1' : '0'}`);
    const res = await request(target, { method: 'POST', headers, body });
    return { status: res.statusCode, bytes: Buffer.from(await res.body.arrayBuffer()) };
  }

  it('answers a signed stream call with the events of its script, framed as Bedrock frames them', async () => {
    const r = await send(true);
    expect(r.status).toBe(200);
    const sse = bedrockEventStreamToSse()(r.bytes).toString('utf8');
    expect(sse).toContain('"stop_reason":"end_turn"');
    expect(sse).toContain('"amazon-bedrock-invocationMetrics":{"inputTokenCount":5,"outputTokenCount":3');
    expect(scripted).toEqual(['64']);
  });

  it('still refuses a bad signature, and answers a call not streamed from its fixtures', async () => {
    expect((await send(true, true)).status).toBe(403);
    const plain = await send(false);
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.bytes.toString('utf8'))).toMatchObject({ type: 'message', model: 'claude-3-haiku-20240307' });
    expect(scripted).toHaveLength(1);
  });
});
