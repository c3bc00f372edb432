import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ClientCall } from '../../types.js';
import { claudeClient } from './client.js';

const call: ClientCall = { format: 'claude', mode: 'chat', model: 'claude-haiku-4-5', stream: true, json: {}, clientWantsStreamUsage: true, maxTokens: 256 };

/** A recorded Claude stream (the default answer of the Claude mock, with its model filled in). */
const STREAM = readFileSync(new URL('../../../test/fixtures/claude/messages/default.sse', import.meta.url), 'utf8')
  .replaceAll('{{model}}', 'claude-haiku-4-5')
  .replace(/\n*$/, '\n\n');
const CUT_ERROR = 'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"上游连接中断"}}\n\n';

/** Feeds `text` in pieces of `size` bytes; returns what the meter forwarded, and what it added at the end. */
function run(text: string, size: number) {
  const meter = claudeClient.streamMeter(call);
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(meter.push(bytes.subarray(i, i + size)));
  return { meter, forwarded: Buffer.concat(out).toString('utf8'), end: meter.finish(false).toString('utf8') };
}

describe('the Claude passthrough stream meter', () => {
  it.each([1, 7, 64, 100_000])('forwards a whole stream byte for byte, in pieces of %i bytes, adding nothing', (size) => {
    const { meter, forwarded, end } = run(STREAM, size);
    expect(forwarded + end).toBe(STREAM);
    // message_stop waits for the end of the answer: the call is settled before the client can take it as finished.
    expect(forwarded).not.toContain('message_stop');
    expect(end).toContain('event: message_stop\n');
    expect(meter.usage).toMatchObject({ promptTokens: 21, completionTokens: 9 });
  });

  it('forwards only whole events, so a cut inside an event ends with an error event instead of half of one', () => {
    const cutAt = STREAM.indexOf('" from the"');
    const { forwarded, end } = run(STREAM.slice(0, cutAt), 16);
    expect(forwarded).toBe(STREAM.slice(0, STREAM.lastIndexOf('event: content_block_delta', cutAt)));
    expect(end).toBe(CUT_ERROR);
  });

  it('ends a stream cut between events with an error event', () => {
    const cutAt = STREAM.indexOf('event: content_block_stop');
    const { forwarded, end } = run(STREAM.slice(0, cutAt), 50);
    expect(forwarded).toBe(STREAM.slice(0, cutAt));
    expect(end).toBe(CUT_ERROR);
  });

  it('keeps the last event of an upstream that omits the final blank line', () => {
    const text = STREAM.replace(/\n+$/, '');
    const { forwarded, end } = run(text, 33);
    expect(forwarded + end).toBe(text);
  });

  it('adds nothing after an error event of the upstream', () => {
    const text = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const { forwarded, end } = run(text, 10);
    expect(forwarded + end).toBe(text);
    expect(end).toMatch(/^event: error\n/);
  });

  it('reads events ended by CRLF blank lines as whole', () => {
    const text = STREAM.replaceAll('\n', '\r\n');
    const { forwarded, end } = run(text, 9);
    expect(forwarded + end).toBe(text);
    expect(end).toMatch(/^event: message_stop\r\n/);
  });
});
