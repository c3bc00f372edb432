import { describe, expect, it } from 'vitest';
import { errorText, readChatStream, readEvent, SseDataLines } from './chatStream';

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(bytes.encode(p));
      controller.close();
    },
  });
}

async function read(parts: string[]) {
  let content = '';
  let reasoning = '';
  const end = await readChatStream(streamOf(parts), (c, r) => {
    content += c;
    reasoning += r;
  });
  return { end, content, reasoning };
}

describe('the playground stream', () => {
  it('reads event data split anywhere across network chunks, CRLF or LF', () => {
    const lines = new SseDataLines();
    expect(lines.push('data: {"a"')).toEqual([]);
    expect(lines.push(':1}\r\n\r\nevent: x\ndata:[DONE]')).toEqual(['{"a":1}']);
    expect(lines.finish()).toEqual(['[DONE]']);
  });

  it('ends on [DONE] and ignores what follows', async () => {
    expect(await read([chunk('Hel'), chunk('lo'), 'data: [DONE]\n\n', chunk('late')])).toEqual({ end: { kind: 'complete' }, content: 'Hello', reasoning: '' });
  });

  it('ends on an empty choices list once the answer has started, not before it', async () => {
    const empty = 'data: {"choices":[],"prompt_filter_results":[]}\n\n';
    expect(await read([empty, chunk('a'), empty, chunk('b')])).toMatchObject({ end: { kind: 'complete' }, content: 'a' });
  });

  it('ends when the connection closes', async () => {
    expect(await read([chunk('cut'), 'data: {"choices":[{"delta":{"content":" of'])).toEqual({ end: { kind: 'complete' }, content: 'cut', reasoning: '' });
  });

  it('keeps reasoning apart from the answer', async () => {
    const thinking = `data: ${JSON.stringify({ choices: [{ delta: { reasoning_content: 'hmm' } }] })}\n\n`;
    expect(await read([thinking, chunk('yes'), 'data: [DONE]\n\n'])).toMatchObject({ content: 'yes', reasoning: 'hmm' });
  });

  it('turns an error inside the stream into an error with its text', async () => {
    const failed = `data: ${JSON.stringify({ error: { message: '上游连接中断', type: 'upstream_error' } })}\n\n`;
    expect(await read([chunk('part'), failed])).toEqual({ end: { kind: 'error', message: '上游连接中断' }, content: 'part', reasoning: '' });
  });

  it("reads an error answer's message, or keeps a body that is not OpenAI's shape", () => {
    expect(errorText('{"error":{"message":"无权访问分组 svip","type":"invalid_request_error"}}')).toBe('无权访问分组 svip');
    expect(errorText('{"error":"plain"}')).toBe('plain');
    expect(errorText('Bad Gateway')).toBe('Bad Gateway');
  });

  it('skips events that are not JSON', () => {
    expect(readEvent('{broken', true, () => undefined)).toEqual({ end: null, started: true });
  });
});
