import { TO_NORMALISE, type UnitTables } from './normalise.js';

/*
 * A quick test that a text holds none of a short word list, run by the regular-expression engine (native code)
 * before the matcher's own scan in JavaScript: on a 1 MB prompt about 1 ms against 4-8 ms for the scan.
 *
 * A text in which no unit needs normalising is read by the matcher one folded unit at a time, so a word occurs in it
 * exactly when, at some position, each unit of the text folds to the word's unit there. The screen asks the engine
 * that: one alternative per word, each unit a class of the text units that fold to it. Any unit that needs
 * normalising (combining marks, compatibility characters, zero-width characters, surrogate pairs) sends the text to
 * the matcher's exact scan. A text the screen passes holds no word; one it stops is scanned as before, so the
 * matcher's results do not change.
 *
 * The engine's cost grows with each alternative (it tries every one at every position): past a few words the scan
 * is faster (bench/micro-sensitive-words.mjs), and no screen is built.
 */

/** Words screened at most: at 8 the screen cost as much as the scan on ASCII text. */
export const SCREEN_MAX_WORDS = 4;

/**
 * Runs of units read as they are (besides ASCII) that the test for units to normalise lets through in native code.
 * The engine's class test slows down fivefold to tenfold past about a dozen ranges, so the class holds a dozen: the
 * runs of characters common in prompts (the Read tool's `→`, CJK, Hangul, Cyrillic, Latin-1, quotes, dashes, box
 * drawing), then the longest others. Any other unit found is looked up in the tables.
 */
const SAFE_RUNS = 12;
const COMMON = '中한→—“─。，аé';

const hex = (u: number) => `\\u${u.toString(16).padStart(4, '0')}`;
const range = ([from, to]: readonly [number, number]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`);

/** A character class of sorted code units ([] matches nothing: a word unit no text unit folds to). */
function classOf(units: readonly number[]): string {
  let out = '';
  for (let i = 0; i < units.length; ) {
    let j = i;
    while (j + 1 < units.length && units[j + 1] === units[j] + 1) j++;
    out += range([units[i], units[j]]);
    i = j + 1;
  }
  return `[${out}]`;
}

interface ScreenTables {
  /** The text units that fold to each folded unit. */
  preimages: Map<number, number[]>;
  /** Units outside the class's safe runs: each found is a unit to normalise or a safe one to skip. */
  outside: RegExp;
}

let shared: ScreenTables | null = null;

function screenTables({ fold }: UnitTables): ScreenTables {
  if (shared) return shared;
  const preimages = new Map<number, number[]>();
  const runs: Array<[number, number]> = [];
  for (let u = 0; u < 0x10000; u++) {
    const c = fold[u];
    if (c === TO_NORMALISE) continue;
    const list = preimages.get(c);
    if (list) list.push(u);
    else preimages.set(c, [u]);
    if (u < 0x80) continue;
    const last = runs.at(-1);
    if (last && last[1] === u - 1) last[1] = u;
    else runs.push([u, u]);
  }
  const holding = (u: number) => runs.find(([from, to]) => from <= u && u <= to);
  const kept = new Set<[number, number]>();
  for (const ch of COMMON) {
    const run = holding(ch.charCodeAt(0));
    if (run) kept.add(run);
  }
  for (const run of [...runs].sort((a, b) => b[1] - b[0] - (a[1] - a[0]))) {
    if (kept.size >= SAFE_RUNS) break;
    kept.add(run);
  }
  const safe = [...kept].sort((a, b) => a[0] - b[0]).map(range).join('');
  shared = { preimages, outside: new RegExp(`[^\\u0000-\\u007f${safe}]`, 'g') };
  return shared;
}

export class WordScreen {
  private readonly words: RegExp;
  private readonly outside: RegExp;

  /** `words`: each word as the matcher reads it, its folded units in order. */
  constructor(words: readonly (readonly number[])[], private readonly tables: UnitTables) {
    const { preimages, outside } = screenTables(tables);
    this.words = new RegExp(words.map((units) => units.map((c) => classOf(preimages.get(c) ?? [])).join('')).join('|'));
    this.outside = outside;
  }

  /** False when the text surely holds no word; true when it may (the matcher's scan tells). */
  mayHold(text: string): boolean {
    return this.needsNormalising(text) || this.words.test(text);
  }

  private needsNormalising(text: string): boolean {
    const { fold } = this.tables;
    const outside = this.outside;
    outside.lastIndex = 0;
    for (let m = outside.exec(text); m !== null; m = outside.exec(text)) {
      if (fold[text.charCodeAt(m.index)] === TO_NORMALISE) return true;
    }
    return false;
  }
}
