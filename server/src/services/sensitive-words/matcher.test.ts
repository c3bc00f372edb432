import { describe, expect, it } from 'vitest';
import { WordMatcher } from './matcher.js';
import { normaliseRun } from './normalise.js';

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

  it('matches full-width, compatibility and mixed-case spellings as their NFKC form', () => {
    const m = new WordMatcher(['full', 'file', 'ガ']);
    expect(m.find('ｆｕｌｌ')).toEqual(['full']);
    expect(m.find('ＦｕＬＬ stop')).toEqual(['full']);
    expect(m.find('ⓕⓤⓛⓛ')).toEqual(['full']);
    expect(m.find('𝐟𝐮𝐥𝐥 and 𝓕𝓤𝓛𝓛')).toEqual(['full']);
    expect(m.find('a ﬁle')).toEqual(['file']);
    expect(m.find('ｶﾞ')).toEqual(['ガ']);
    // A word written in full width matches its plain spelling too.
    expect(new WordMatcher(['ＴＥＳＴ']).find('a test')).toEqual(['ＴＥＳＴ']);
  });

  it('ignores zero-width and other invisible characters, in the text and in the words', () => {
    const m = new WordMatcher(['full', '敏感词']);
    expect(m.find('f\u200bu\u200bll')).toEqual(['full']);
    expect(m.find('f\u200cu\u200dl\u2060l\ufeff')).toEqual(['full']);
    expect(m.find('fu\u00adll')).toEqual(['full']);
    expect(m.find('敏\u200b感\u200d词')).toEqual(['敏感词']);
    expect(m.find('ｆ\u200bＵ\u200bｌｌ')).toEqual(['full']);
    expect(new WordMatcher(['f\u200bull']).find('FULL')).toEqual(['f\u200bull']);
    expect(new WordMatcher(['\u200b', ' \u200d ']).empty).toBe(true);
  });

  it('composes accents as NFKC does, and still tells accented letters apart', () => {
    const m = new WordMatcher(['café', 'test']);
    expect(m.find('cafe\u0301')).toEqual(['café']);
    expect(m.find('cafe\u200b\u0301')).toEqual(['café']);
    expect(m.find('ｃａｆｅ\u0301')).toEqual(['café']);
    expect(m.find('tést')).toEqual([]);
    expect(m.find('cafe')).toEqual([]);
    expect(new WordMatcher(['cafe\u0301']).find('CAFÉ')).toEqual(['cafe\u0301']);
  });

  it('finds a word across the cut of a long run to normalise, and after it', () => {
    const m = new WordMatcher(['gk', 'tail']);
    expect(m.find('㎏'.repeat(3000))).toEqual(['gk']);
    expect(m.find(`${'😀'.repeat(3000)}ｔａｉｌ`)).toEqual(['tail']);
    expect(m.find(`${'e\u0301'.repeat(2000)}t\u200bail`)).toEqual(['tail']);
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

  it('screens a short list without changing what is found', () => {
    // The screen passes texts only when no unit needs normalising and no word's folded spelling occurs.
    const m = new WordMatcher(['test_sensitive', 'q\u0301', '违禁']);
    expect(m.find('12→const test_sensitive = 1;')).toEqual(['test_sensitive']);
    expect(m.find('ＴＥＳＴ＿ＳＥＮＳＩＴＩＶＥ')).toEqual(['test_sensitive']);
    expect(m.find('ⓣest_sensitive… and more')).toEqual(['test_sensitive']);
    expect(m.find('test\u200b_sensitive')).toEqual(['test_sensitive']);
    expect(m.find('Q\u0301 and 违\u200b禁')).toEqual(['q\u0301', '违禁']);
    expect(m.find('test sensitive — “quoted” ─ 。，а é → 中文 한국어')).toEqual([]);
    expect(m.find('')).toEqual([]);
  });

  it('finds the same words screened as scanned, on random texts of every kind of unit', () => {
    let seed = 23;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const units = ['a', 'b', 'A', 'ａ', 'Ｂ', 'ⓑ', '\u0301', 'é', 'k', '㎏', '…', '→', '—', '中', '한', '😀', '𝐚', '\u200b', 'ᄀ', 'ᅡ', '_', '＿', ' '];
    // Every other round only units read as they are, so the screen itself decides.
    const plain = ['a', 'b', 'A', 'ａ', 'Ｂ', 'ⓑ', 'é', 'k', '→', '—', '中', '한', '_', '＿', ' '];
    const str = (from: string[], len: number) => Array.from({ length: len }, () => from[rand(from.length)]).join('');
    for (let round = 0; round < 3000; round++) {
      const from = round % 2 === 0 ? units : plain;
      const words = Array.from({ length: 1 + rand(4) }, () => str(from, 1 + rand(3)));
      const text = str(from, rand(40));
      const screened = new WordMatcher(words);
      const scanned = new WordMatcher(words, { screened: false });
      expect(screened.find(text), JSON.stringify({ words, text })).toEqual(scanned.find(text));
    }
  });

  it('reads text run by run exactly as if the whole text were normalised first', () => {
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    // Units of every kind: plain, full width, combining marks, compatibility forms, surrogate pairs, zero width.
    const units = ['a', 'e', 'E', 'ａ', 'Ｅ', '\u0301', '\u0323', 'é', 'k', 'g', '㎏', '…', '.', '😀', '𝐞', '敏', 'ｶ', 'ﾞ', 'ガ', '\u200b', '\u00ad', 'ᄀ', 'ᅡ', '가', 'ᆨ'];
    const str = (len: number) => Array.from({ length: len }, () => units[rand(units.length)]).join('');
    const normalisedNaive = (words: string[], text: string) =>
      naive(
        words.filter((w) => normaliseRun(w).trim()).map((w) => normaliseRun(w)),
        normaliseRun(text),
      );
    for (let round = 0; round < 2000; round++) {
      const words = Array.from({ length: 1 + rand(6) }, () => str(1 + rand(3)));
      const text = str(rand(30));
      const m = new WordMatcher(words);
      const byForm = new Map(m.words.map((w) => [normaliseRun(w).trim().toLowerCase(), w]));
      const expected = normalisedNaive(m.words as string[], text).map((form) => byForm.get(form.trim().toLowerCase()));
      expect(m.find(text).sort(), JSON.stringify({ words, text })).toEqual(expected.sort());
    }
  });
});
