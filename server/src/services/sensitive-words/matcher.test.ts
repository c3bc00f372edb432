import { describe, expect, it } from 'vitest';
import { WordMatcher } from './matcher.js';

/** Every word occurring in the text, found the slow way (for comparison on random inputs). */
function naive(words: string[], text: string): string[] {
  const lower = text.toLowerCase();
  const seen = new Map<string, string>();
  for (const w of words.map((x) => x.trim()).filter(Boolean)) if (!seen.has(w.toLowerCase())) seen.set(w.toLowerCase(), w);
  return [...seen].filter(([folded]) => lower.includes(folded)).map(([, w]) => w).sort();
}

describe('sensitive-word matcher', () => {
  it('finds overlapping words and words inside words', () => {
    const m = new WordMatcher(['he', 'she', 'his', 'hers']);
    expect(m.find('ushers').sort()).toEqual(['he', 'hers', 'she']);
    expect(m.find('ahishers').sort()).toEqual(['he', 'hers', 'his', 'she']);
    expect(new WordMatcher(['abcd', 'bc', 'c']).find('xabcx').sort()).toEqual(['bc', 'c']);
  });

  it('follows failure links through partial matches', () => {
    const m = new WordMatcher(['aab', 'ab', 'abc']);
    expect(m.find('aaab').sort()).toEqual(['aab', 'ab']);
    expect(m.find('aabc').sort()).toEqual(['aab', 'ab', 'abc']);
    expect(m.find('aaaa')).toEqual([]);
  });

  it('ignores case in words and text, and reports words as configured', () => {
    const m = new WordMatcher(['Test_Sensitive', 'ΣΟΦΙΑ']);
    expect(m.find('this is a TEST_SENSITIVE prompt')).toEqual(['Test_Sensitive']);
    expect(m.find('σοφια')).toEqual(['ΣΟΦΙΑ']);
    expect(new WordMatcher(['istanbul']).find('İSTANBUL')).toEqual(['istanbul']);
  });

  it('matches only what lower-casing makes equal (no width folding)', () => {
    const m = new WordMatcher(['test']);
    expect(m.find('ＴＥＳＴ')).toEqual([]);
    expect(m.find('tést')).toEqual([]);
  });

  it('matches CJK words, astral characters and words with spaces', () => {
    const m = new WordMatcher(['敏感词', '违禁', '😀x', 'bad word']);
    expect(m.find('这段话包含敏感词和违禁内容').sort()).toEqual(['敏感词', '违禁'].sort());
    expect(m.find('敏感 词')).toEqual([]);
    expect(m.find('a😀X')).toEqual(['😀x']);
    expect(m.find('a BAD WORD here')).toEqual(['bad word']);
    expect(m.find('badword')).toEqual([]);
  });

  it('drops blank and duplicate words; an empty list matches nothing', () => {
    const m = new WordMatcher(['  foo ', '', '   ', 'FOO', 'bar']);
    expect(m.words).toEqual(['foo', 'bar']);
    expect(m.find('Foo bar')).toEqual(['foo', 'bar']);
    const none = new WordMatcher([]);
    expect(none.empty).toBe(true);
    expect(none.find('anything at all')).toEqual([]);
  });

  it('collects into one set across texts, a word once', () => {
    const m = new WordMatcher(['x', 'yz']);
    const found = new Set<string>();
    m.collect('x x x', found);
    m.collect('y', found);
    m.collect('z', found);
    expect([...found]).toEqual(['x']);
    m.collect('xyz', found);
    expect([...found]).toEqual(['x', 'yz']);
  });

  it('agrees with a naive search on random words and texts', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const alphabet = 'abAB敏感c';
    const str = (len: number) => Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join('');
    for (let round = 0; round < 300; round++) {
      const words = Array.from({ length: 1 + rand(8) }, () => str(1 + rand(4)));
      const text = str(rand(40));
      expect(new WordMatcher(words).find(text).sort(), JSON.stringify({ words, text })).toEqual(naive(words, text));
    }
  });
});
