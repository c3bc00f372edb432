/*
 * What the matcher compares: text in NFKC, without default-ignorable code points (zero-width spaces and joiners, soft
 * hyphens, bidi marks, variation selectors), lower-cased one code unit at a time. So `ｆｕｌｌ`, `f\u200bu\u200bll`
 * and `FULL` all read as `full`.
 *
 * Most code units need no normalising at all: NFKC leaves them alone whatever surrounds them. The tables below,
 * built once from the runtime's own Unicode data, say which: a prompt made only of such units (any ASCII prompt,
 * most Chinese ones) is read straight through with one table read per unit, and only the short runs around the
 * others (combining marks, compatibility characters, surrogate pairs, zero-width characters) are normalised, each
 * on its own: NFKC of a text cut just before a unit that no preceding one can combine with is the NFKC of each
 * part, one after the other.
 */

/** NFKC leaves it alone, and nothing before it combines with it: read as it is. */
export const PLAIN = 0;
/** Becomes one PLAIN unit under NFKC, without touching its neighbours (full-width letters, the ideographic space). */
export const MAPPED = 1;
/** Changes under NFKC (to several units, or one that is not PLAIN), but nothing before it combines with it. */
export const STARTER = 2;
/** May combine with what comes before it (combining marks, Hangul vowel and final jamo), or half a surrogate pair. */
export const JOINING = 3;
/** Default_Ignorable_Code_Point: removed before NFKC. */
export const IGNORABLE = 4;

/** Units of kind NEEDS_NORMALISING or above are read through a normalised run. */
export const NEEDS_NORMALISING = STARTER;

/**
 * What `fold` gives for a unit read through a normalised run. U+FFFF, a noncharacter, is one of them (taken as a
 * STARTER), so the value never stands for a unit read as it is.
 */
export const TO_NORMALISE = 0xffff;

export interface UnitTables {
  /** The kind of each UTF-16 code unit (PLAIN ... IGNORABLE). */
  kind: Uint8Array;
  /**
   * The unit to match for each code unit read as it is: its lower case, after NFKC for a MAPPED one; TO_NORMALISE
   * for the others (one table read tells the scan both).
   */
  fold: Uint16Array;
}

const MARK = /\p{M}/u;
const IGNORABLE_UNIT = /\p{Default_Ignorable_Code_Point}/u;
const IGNORABLES = /\p{Default_Ignorable_Code_Point}/gu;

/** Hangul vowel and final jamo: they compose with a preceding leading jamo or syllable, yet are letters, not marks. */
const isHangulJoiner = (c: number): boolean => c >= 0x1160 && c <= 0x11ff;

/** Whether a character may combine with what precedes it: it, or the start of its NFKD, is a mark or a joining jamo. */
function joinsBackward(ch: string): boolean {
  if (MARK.test(ch) || isHangulJoiner(ch.charCodeAt(0))) return true;
  const first = ch.normalize('NFKD').charCodeAt(0);
  return isHangulJoiner(first) || MARK.test(String.fromCharCode(first));
}

function kindOf(c: number): number {
  // ASCII is PLAIN without asking.
  if (c < 0x80) return PLAIN;
  if (c === TO_NORMALISE) return STARTER;
  if (c >= 0xd800 && c <= 0xdfff) return JOINING;
  const ch = String.fromCharCode(c);
  if (IGNORABLE_UNIT.test(ch)) return IGNORABLE;
  if (joinsBackward(ch)) return JOINING;
  const n = ch.normalize('NFKC');
  if (n === ch) return PLAIN;
  return n.length === 1 && kindOf(n.charCodeAt(0)) === PLAIN ? MAPPED : STARTER;
}

/** Lower case of one code unit (its first unit, for İ whose lower case is two). */
const lower = (c: number): number => String.fromCharCode(c).toLowerCase().charCodeAt(0);

let tables: UnitTables | null = null;

/** The tables of every code unit (192 KiB), built on first use (~40 ms). */
export function unitTables(): UnitTables {
  if (tables) return tables;
  const kind = new Uint8Array(0x10000);
  const fold = new Uint16Array(0x10000).fill(TO_NORMALISE);
  for (let c = 0; c < 0x10000; c++) {
    kind[c] = kindOf(c);
    if (kind[c] === PLAIN) fold[c] = lower(c);
    else if (kind[c] === MAPPED) fold[c] = lower(String.fromCharCode(c).normalize('NFKC').charCodeAt(0));
  }
  tables = { kind, fold };
  return tables;
}

/** A run of text in the matcher's form, before folding: zero-width characters removed, then NFKC. */
export function normaliseRun(run: string): string {
  return run.replace(IGNORABLES, '').normalize('NFKC');
}
