import { describe, expect, it } from 'vitest';
import { storableRow, storableText } from './storable-text.js';

describe('storable text', () => {
  it('drops a NUL and replaces a lone surrogate, keeping pairs and everything else', () => {
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText('x\uD800y')).toBe('x\uFFFDy');
    expect(storableText('\uDC00')).toBe('\uFFFD');
    expect(storableText('😀 猫 plain')).toBe('😀 猫 plain');
  });

  it('cleans every string value of a row and leaves the others alone', () => {
    const raw = { sql: { kind: 'raw' } };
    expect(storableRow({ prompt: 'a\u0000cat', quota: 5, fail_reason: null, expr: raw })).toEqual({ prompt: 'acat', quota: 5, fail_reason: null, expr: raw });
  });
});
