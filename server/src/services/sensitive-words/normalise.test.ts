import { describe, expect, it } from 'vitest';
import { IGNORABLE, JOINING, MAPPED, normaliseRun, PLAIN, unitTables } from './normalise.js';

/*
 * The unit tables are what lets the matcher skip NFKC for most text: each claim they make is checked here against
 * the runtime's own normalisation, unit by unit, so a Unicode update of Node cannot make them wrong unnoticed.
 */

const { kind, fold } = unitTables();
const bmpUnits = () => Array.from({ length: 0x10000 }, (_, c) => c).filter((c) => c < 0xd800 || c > 0xdfff);

describe('the unit tables of the normalisation', () => {
  it('read ASCII as it is', () => {
    expect(Array.from(kind.subarray(0, 0x80)).filter((k) => k !== PLAIN)).toEqual([]);
  });

  it('take every unit that composes with an earlier one as JOINING', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const parts = [...String.fromCodePoint(cp).normalize('NFD')];
      // Astral parts are surrogate pairs, JOINING by their first unit.
      for (const part of parts.slice(1)) if (kind[part.charCodeAt(0)] !== JOINING) wrong.push(`U+${part.codePointAt(0)!.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('cut nowhere NFKC would join: a text normalises as its parts do when the second starts below JOINING', () => {
    const before = ['a', 'e\u0301', 'ᄀ', '가', 'ｶ', 'カ', 'Ａ', '㎏', '😀', 'ﬁ', '\u0301'];
    const wrong: string[] = [];
    for (const c of bmpUnits()) {
      if (kind[c] >= JOINING) continue;
      const unit = String.fromCharCode(c);
      for (const x of before) if (normaliseRun(x + unit) !== normaliseRun(x) + normaliseRun(unit)) wrong.push(`${x} + U+${c.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('read a PLAIN unit as its lower case and a MAPPED one as the lower case of its one-unit NFKC', () => {
    const wrong: string[] = [];
    for (const c of bmpUnits()) {
      const unit = String.fromCharCode(c);
      const n = unit.normalize('NFKC');
      if (kind[c] === PLAIN && (n !== unit || fold[c] !== unit.toLowerCase().charCodeAt(0))) wrong.push(`PLAIN U+${c.toString(16)}`);
      if (kind[c] === MAPPED && (n.length !== 1 || kind[n.charCodeAt(0)] !== PLAIN || fold[c] !== n.toLowerCase().charCodeAt(0))) wrong.push(`MAPPED U+${c.toString(16)}`);
    }
    expect(wrong).toEqual([]);
    expect(String.fromCharCode(fold['Ｆ'.charCodeAt(0)])).toBe('f');
    expect(kind['\u3000'.charCodeAt(0)]).toBe(MAPPED);
  });

  it('remove the zero-width and other default-ignorable characters before NFKC', () => {
    for (const zw of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u180e', '\u200e', '\u202e']) {
      expect(kind[zw.charCodeAt(0)], `U+${zw.charCodeAt(0).toString(16)}`).toBe(IGNORABLE);
    }
    expect(normaliseRun('e\u200b\u0301')).toBe('é');
    expect(normaliseRun('a\u{e0041}b')).toBe('ab');
  });
});
