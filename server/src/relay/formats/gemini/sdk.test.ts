import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatChunk } from '../openai/chat.js';
import { chatToGemini, ChatToGeminiStream } from './from-chat.js';

const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: ChatChunk['choices'][number]['finish_reason'] = null): ChatChunk => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function streamBody(): string {
  const s = new ChatToGeminiStream();
  let out = s.push(chunk({ role: 'assistant', reasoning_content: 'Hmm.' }));
  out += s.push(chunk({ content: 'Hello' }));
  out += s.push(chunk({ content: ' world' }));
  out += s.push(chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }] }));
  out += s.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }));
  out += s.push(chunk({}, 'tool_calls'));
  return out + s.finish({ prompt_tokens: 6, completion_tokens: 9, total_tokens: 15, completion_tokens_details: { reasoning_tokens: 3 } });
}

let server: Server;
let ai: GoogleGenAI;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(streamBody());
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        chatToGemini({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1700000000,
          model: 'gpt-4o',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'length' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the official @google/genai SDK reads the converted answers', () => {
  it('parses the stream: text, thoughts, a whole function call, finish reason and usage', async () => {
    const events = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
    let text = '';
    const calls: Array<{ name?: string; args?: Record<string, unknown> }> = [];
    let finishReason: string | undefined;
    let total: number | undefined;
    for await (const event of events) {
      // Read parts directly: event.text warns when a function call shares the answer.
      for (const part of event.candidates?.[0]?.content?.parts ?? []) if (part.text && !part.thought) text += part.text;
      calls.push(...(event.functionCalls ?? []));
      finishReason = event.candidates?.[0]?.finishReason ?? finishReason;
      total = event.usageMetadata?.totalTokenCount ?? total;
    }
    expect(text).toBe('Hello world');
    expect(calls).toEqual([{ name: 'lookup', args: { q: 'x' } }]);
    expect(finishReason).toBe('STOP');
    expect(total).toBe(15);
  });

  it('parses a non-streamed answer', async () => {
    const resp = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    expect(resp.text).toBe('Hi there');
    expect(resp.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(resp.usageMetadata?.promptTokenCount).toBe(3);
  });
});
