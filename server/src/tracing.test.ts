import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './test/databases.js';
import { startMockOpenAI, type MockOpenAI } from './test/mock-openai.js';
import { startRelay } from './test/relay-fixture.js';

/*
 * Relay calls traced through the OpenTelemetry SDK to an OTLP/HTTP collector (a local one that keeps what it is
 * sent): one span per call with the request id, model, channel, tokens, quota and the client's status.
 */

interface OtlpSpan {
  name: string;
  status?: { code?: number };
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

const MODEL = 'gpt-4o';

describe('traces', () => {
  let collector: http.Server;
  let endpoint = '';
  const spans: OtlpSpan[] = [];
  let upstream: MockOpenAI;

  beforeAll(async () => {
    collector = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const doc = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
          for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    upstream = await startMockOpenAI('sk-up');
  });
  afterAll(async () => {
    await upstream.close();
    await new Promise((resolve) => collector.close(resolve));
  });

  const attr = (span: OtlpSpan, key: string) => {
    const v = span.attributes.find((a) => a.key === key)?.value;
    return v === undefined ? undefined : (v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue);
  };

  it('exports one span per relay call, answered or refused, when an OTLP endpoint is set', async () => {
    const f = await startRelay(testDatabases(['sqlite'])[0], { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'gateway-test' });
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1.25 }));
    const channel = await f.channel({ base_url: upstream.url, key: upstream.key, models: MODEL });
    const token = await f.token();
    const res = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json', 'x-request-id': 'traced-call-1' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const refused = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json', 'x-request-id': 'traced-call-2' },
      body: JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await refused.arrayBuffer();
    // Closing the app exports what the batch processor still holds.
    await f.close();

    const answered = spans.find((s) => attr(s, 'switchyard.request_id') === 'traced-call-1')!;
    expect(answered.name).toBe('POST /v1/chat/completions');
    expect(attr(answered, 'gen_ai.request.model')).toBe(MODEL);
    expect(Number(attr(answered, 'switchyard.channel.id'))).toBe(channel);
    expect(Number(attr(answered, 'gen_ai.usage.input_tokens'))).toBe(11);
    expect(Number(attr(answered, 'gen_ai.usage.output_tokens'))).toBe(7);
    expect(Number(attr(answered, 'http.response.status_code'))).toBe(200);
    expect(Number(attr(answered, 'switchyard.quota'))).toBeGreaterThan(0);
    const failed = spans.find((s) => attr(s, 'switchyard.request_id') === 'traced-call-2')!;
    expect(Number(attr(failed, 'http.response.status_code'))).toBeGreaterThanOrEqual(400);
    expect(failed.status?.code).toBe(2);
  });

  it('loads nothing and exports nothing without an endpoint', async () => {
    const before = spans.length;
    const f = await startRelay(testDatabases(['sqlite'])[0]);
    expect(f.t.app.ctx.tracing).toBeNull();
    await f.close();
    expect(spans.length).toBe(before);
  });
});
