import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { bedrockFrames } from '../../../test/mocks/bedrock.js';
import { ClaudeSseSplitter } from '../claude/stream.js';
import { bedrockEventStreamToSse } from './stream.js';

const events = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_bdrk_1","model":"{{model}}","usage":{"input_tokens":5,"output_tokens":1}}}',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo 世界 🚀"}}',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}',
  'event: message_stop\ndata: {"type":"message_stop"}',
];

const frames = bedrockFrames(events, 'claude-3-haiku-20240307');
const wire = Buffer.concat(frames);

function run(pieces: Buffer[]): string {
  const adapt = bedrockEventStreamToSse();
  return pieces.map((p) => adapt(p).toString('utf8')).join('');
}

function cut(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const expected = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_bdrk_1","model":"claude-3-haiku-20240307","usage":{"input_tokens":5,"output_tokens":1}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo 世界 🚀"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":5,"outputTokenCount":4,"invocationLatency":812,"firstByteLatency":296}}\n\n',
].join('');

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const s = (value: string) => ({ type: 'string' as const, value });

describe('Bedrock event stream -> Claude SSE', () => {
  it('turns each chunk frame into the Claude event it carries', () => {
    expect(run([wire])).toBe(expected);
  });

  it.each([1, 3, 7, 64, 1000])('reassembles frames split into %i-byte pieces', (size) => {
    expect(run(cut(wire, size))).toBe(expected);
  });

  it('reads several frames arriving in one piece next to a partial one', () => {
    const split = frames[0].length + frames[1].length + 5;
    expect(run([wire.subarray(0, split), wire.subarray(split)])).toBe(expected);
  });

  it('gives SSE that the Claude splitter reads back to the original events', () => {
    const splitter = new ClaudeSseSplitter();
    const got = [...splitter.push(Buffer.from(run(cut(wire, 5)))), ...splitter.finish()];
    expect(got.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(got[2].data).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'héllo 世界 🚀' } });
  });

  it.each([
    ['throttlingException', 'rate_limit_error'],
    ['modelStreamErrorException', 'api_error'],
    ['validationException', 'invalid_request_error'],
    ['internalServerException', 'api_error'],
    ['serviceUnavailableException', 'overloaded_error'],
  ])('turns a %s frame into a Claude error event (%s)', (exception, type) => {
    const bytes = bedrockFrames([events[0], `event: ${exception}\ndata: {"message":"it went wrong"}`], 'm');
    const out = run([Buffer.concat(bytes)]);
    expect(out.split('\n\n')[1]).toBe(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message: 'it went wrong' } })}`);
  });

  it('names the exception when its payload has no message', () => {
    const f = Buffer.from(codec.encode({ headers: { ':message-type': s('exception'), ':exception-type': s('modelTimeoutException') }, body: fromUtf8('{}') }));
    expect(run([f])).toBe(`event: error\ndata: {"type":"error","error":{"type":"api_error","message":"modelTimeoutException"}}\n\n`);
  });

  it('reports an event stream error message as a Claude error event', () => {
    const f = Buffer.from(
      codec.encode({ headers: { ':message-type': s('error'), ':error-code': s('InternalFailure'), ':error-message': s('stream broke') }, body: new Uint8Array() }),
    );
    expect(run([f])).toBe(`event: error\ndata: {"type":"error","error":{"type":"api_error","message":"stream broke"}}\n\n`);
  });

  it('passes a Claude error carried inside a chunk through as an error event', () => {
    const bytes = bedrockFrames(['event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'], 'm');
    expect(run(bytes)).toBe('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n');
  });

  it('skips frames that carry nothing to convert', () => {
    const other = Buffer.from(codec.encode({ headers: { ':message-type': s('event'), ':event-type': s('initial-response') }, body: fromUtf8('{}') }));
    const noBytes = Buffer.from(codec.encode({ headers: { ':message-type': s('event'), ':event-type': s('chunk') }, body: fromUtf8('{"p":"abc"}') }));
    expect(run([other, noBytes, frames[3]])).toBe('event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n');
  });

  it('compacts a pretty-printed event onto one data line', () => {
    const pretty = JSON.stringify({ type: 'content_block_stop', index: 0 }, null, 2);
    const f = Buffer.from(
      codec.encode({
        headers: { ':message-type': s('event'), ':event-type': s('chunk') },
        body: fromUtf8(JSON.stringify({ bytes: Buffer.from(pretty).toString('base64') })),
      }),
    );
    expect(run([f])).toBe('event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n');
  });

  it('ends with one error event when a frame fails its checksum, and ignores what follows', () => {
    const bad = Buffer.from(frames[1]);
    bad[bad.length - 1] ^= 0xff;
    const adapt = bedrockEventStreamToSse();
    const first = adapt(Buffer.concat([frames[0], bad])).toString('utf8');
    expect(first.startsWith('event: message_start\n')).toBe(true);
    expect(first.endsWith('event: error\ndata: {"type":"error","error":{"type":"api_error","message":"Bedrock 事件流数据损坏"}}\n\n')).toBe(true);
    expect(adapt(frames[2]).length).toBe(0);
  });

  it('refuses an impossible frame length instead of buffering it', () => {
    const adapt = bedrockEventStreamToSse();
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(0x7fffffff, 0);
    expect(adapt(huge).toString('utf8')).toContain('"type":"error"');
  });

  it('holds a partial frame until the rest arrives (a cut stream yields only whole events)', () => {
    const adapt = bedrockEventStreamToSse();
    const partial = Buffer.concat([frames[0], frames[1].subarray(0, 10)]);
    expect(adapt(partial).toString('utf8')).toBe(expected.split('\n\n')[0] + '\n\n');
  });
});
