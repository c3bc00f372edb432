import { describe, expect, it } from 'vitest';
import { SseToJsonArray } from './json-array.js';

/** Feeds `text` in pieces of `size` bytes and joins what comes out. */
function framed(text: string, size: number, end: (a: SseToJsonArray) => Buffer = (a) => a.end()): string {
  const a = new SseToJsonArray();
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(a.push(bytes.subarray(i, i + size)));
  out.push(end(a));
  return Buffer.concat(out).toString();
}

const events = '{"a":"é"}\r\n\r\n'.replace(/^/, 'data: ') + ': keep-alive\n\ndata: {"b":2}\n\ndata: {"c":3}';

describe('SSE events as a JSON array stream', () => {
  it('writes each event as an element as it completes, whatever the pieces, and closes the array', () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      const text = framed(events, size);
      expect(JSON.parse(text)).toEqual([{ a: 'é' }, { b: 2 }, { c: 3 }]);
      expect(text.startsWith('[{"a":"é"}\r\n,{"b":2}') || text.startsWith('[{"a":"é"},\r\n{"b":2}')).toBe(true);
    }
  });

  it('holds back only the unfinished event', () => {
    const a = new SseToJsonArray();
    expect(a.push(Buffer.from('data: {"x":1}\n\ndata: {"y"')).toString()).toBe('[{"x":1}');
    expect(a.push(Buffer.from(':2}\n\n')).toString()).toBe(',\r\n{"y":2}');
  });

  it('is an empty array when nothing came', () => {
    expect(framed('', 1)).toBe('[]');
    expect(JSON.parse(framed(': ping\n\n', 3))).toEqual([]);
  });

  it('ends a failed stream with the error as its last element, dropping a half event', () => {
    const text = framed('data: {"x":1}\n\ndata: {"half', 4, (a) => a.fail('{"error":{"code":502}}'));
    expect(JSON.parse(text)).toEqual([{ x: 1 }, { error: { code: 502 } }]);
    expect(JSON.parse(framed('', 1, (a) => a.fail('{"error":{}}')))).toEqual([{ error: {} }]);
  });
});
