import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatChunk, ChatCompletion, ChatUsage } from '../openai/chat.js';
import { chatToResponses, ChatToResponsesStream } from './from-chat.js';
import { newIdBase } from './ids.js';

/*
 * A tiny server that answers /v1/responses with what the converters make of the canonical fixtures: the request's
 * model names the fixture (fixtures/from-chat/<model>.json for JSON, fixtures/stream/<model>.json for streams).
 */

const fixture = <T>(folder: string, name: string): T => JSON.parse(readFileSync(new URL(`./fixtures/${folder}/${name}.json`, import.meta.url), 'utf8')) as T;

function jsonAnswer(name: string, req: Record<string, unknown>): string {
  const c = fixture<{ input: ChatCompletion }>('from-chat', name);
  return JSON.stringify(chatToResponses(c.input, req, newIdBase()));
}

function sseAnswer(name: string, req: Record<string, unknown>): string {
  const c = fixture<{ chunks: ChatChunk[]; end: { usage?: ChatUsage; error?: string } }>('stream', name);
  const conv = new ChatToResponsesStream(req, String(req.model), newIdBase());
  let out = '';
  for (const chunk of c.chunks) out += conv.push(chunk);
  return out + (c.end.error !== undefined ? conv.error(c.end.error) : conv.finish(c.end.usage));
}

let server: Server;
let client: OpenAI;
const seen: Array<{ path: string; auth: string | undefined; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      const name = String(body.model);
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sseAnswer(name, body));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(jsonAnswer(name, body));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'sk-switchyard', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the official openai SDK reads converted Responses answers over HTTP', () => {
  it('responses.create(): output_text, echoed settings and usage', async () => {
    const resp = await client.responses.create({ model: 'text', input: 'Say hi', instructions: 'Be brief.', temperature: 0.3 });
    expect(seen.at(-1)).toMatchObject({ path: '/v1/responses', auth: 'Bearer sk-switchyard' });
    expect(resp.object).toBe('response');
    expect(resp.id).toMatch(/^resp_/);
    expect(resp.status).toBe('completed');
    expect(resp.output_text).toBe('Hello there!');
    expect(resp.model).toBe('text');
    expect(resp.instructions).toBe('Be brief.');
    expect(resp.temperature).toBe(0.3);
    expect(resp.usage).toEqual({
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    });
  });

  it('responses.create(): function calls and reasoning', async () => {
    const resp = await client.responses.create({ model: 'tool-calls', input: 'Weather?' });
    expect(resp.output.map((o) => o.type)).toEqual(['reasoning', 'function_call', 'function_call']);
    const calls = resp.output.filter((o) => o.type === 'function_call');
    expect(calls.map((c) => [c.call_id, c.name, JSON.parse(c.arguments)])).toEqual([
      ['call_a', 'get_weather', { city: 'Paris' }],
      ['call_b', 'get_weather', { city: 'London' }],
    ]);
    expect(resp.output_text).toBe('');
    expect(resp.usage?.output_tokens_details.reasoning_tokens).toBe(12);
  });

  it('responses.create(): a cut-off answer is incomplete, with the reason', async () => {
    const resp = await client.responses.create({ model: 'max-output-tokens', input: 'Tell a story', max_output_tokens: 5 });
    expect(resp.status).toBe('incomplete');
    expect(resp.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(resp.output_text).toBe('Once upon a time');
  });

  it('responses.create({stream: true}): events in order, text deltas, usage on response.completed', async () => {
    const stream = await client.responses.create({ model: 'text', input: 'Say hi', stream: true });
    const types: string[] = [];
    let text = '';
    let usage: OpenAI.Responses.ResponseUsage | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') usage = event.response.usage;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe('Hello world');
    expect(usage?.input_tokens).toBe(9);
    expect(usage?.total_tokens).toBe(11);
  });

  it('responses.stream(): streamed function-call arguments, snapshots and finalResponse()', async () => {
    const stream = client.responses.stream({ model: 'tools-streamed-arguments', input: 'Weather?' });
    const argSnapshots: string[] = [];
    const doneArgs: string[] = [];
    stream.on('response.function_call_arguments.delta', (e) => argSnapshots.push(e.snapshot));
    stream.on('response.function_call_arguments.done', (e) => doneArgs.push(e.arguments));
    const final = await stream.finalResponse();
    expect(argSnapshots).toEqual(['{"ci', '{"city":"Paris"}', '{"city":', '{"city":"London"}']);
    expect(doneArgs).toEqual(['{"city":"Paris"}', '{"city":"London"}']);
    expect(final.output_text).toBe('Checking.');
    const calls = final.output.filter((o) => o.type === 'function_call');
    expect(calls.map((c) => c.arguments)).toEqual(['{"city":"Paris"}', '{"city":"London"}']);
    expect(final.usage?.input_tokens_details.cached_tokens).toBe(16);
  });

  it('responses.stream(): reasoning summary, then text', async () => {
    const final = await client.responses.stream({ model: 'reasoning-then-text', input: '2+2?' }).finalResponse();
    const reasoning = final.output.find((o) => o.type === 'reasoning');
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: 'Add them.' }]);
    expect(final.output_text).toBe('4');
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(5);
  });

  it('responses.stream(): an answer that breaks off makes the SDK throw with the message', async () => {
    await expect(client.responses.stream({ model: 'cut-with-error', input: 'Long' }).finalResponse()).rejects.toThrow('上游连接中断');
  });
});
