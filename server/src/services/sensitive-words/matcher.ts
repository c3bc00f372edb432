import { IGNORABLE, JOINING, MAPPED, NEEDS_NORMALISING, normaliseRun, PLAIN, STARTER, TO_NORMALISE, unitTables, type UnitTables } from './normalise.js';
import { SCREEN_MAX_WORDS, WordScreen } from './screen.js';

/*
 * Aho-Corasick over UTF-16 code units. Words and text are read in the same normalised form (normalise.ts: NFKC,
 * zero-width characters removed, lower case one code unit at a time), so matching ignores case, width and
 * invisible characters; accents still count (`tést` is not `test`). Text that needs no normalising is read in
 * place: no lowered or normalised copy of a prompt is made. A short list screens each text first (screen.ts).
 */

/** A run to normalise is cut before this many units where it safely can (a long run of emoji or combining marks). */
const MAX_RUN = 1024;

/**
 * Where a run to normalise that starts before `from` ends: at the first unit read as it is (PLAIN or MAPPED), or,
 * past MAX_RUN units, before a unit nothing before it combines with.
 */
function runEnd(text: string, from: number, kind: Uint8Array): number {
  let j = from;
  while (j < text.length) {
    const k = kind[text.charCodeAt(j)];
    if (k < NEEDS_NORMALISING || (k === STARTER && j - from >= MAX_RUN)) break;
    j++;
  }
  return j;
}

const NONE = -1;

const NO_WORDS: string[] = [];

/**
 * The unit matched for a unit of normalised text (a word, a normalised run): its lower case; itself when it has
 * none to look up (a mark NFKC could not compose, half a surrogate pair); NONE for an ignorable one, skipped.
 */
function matchedUnit(u: number, { kind, fold }: UnitTables): number {
  const k = kind[u];
  if (k === IGNORABLE) return NONE;
  return k === PLAIN || k === MAPPED ? fold[u] : u;
}

/** A slot of the transition table nobody uses. */
const FREE = -1;

/** Where the transition (node, unit) starts its probe, in a table of mask + 1 slots. */
const slotOf = (node: number, unit: number, mask: number): number => (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) & mask;

export class WordMatcher {
  /** The root's transitions by folded code unit (0: none, the scan stays at the root). */
  private readonly rootNext: Int32Array;
  /**
   * Every other node's transitions, in one open-addressing hash table keyed by (node, code unit): a probe reads
   * typed arrays only (the scan ran twice as fast as with a Map per node).
   */
  private readonly slotNode: Int32Array;
  private readonly slotUnit: Uint16Array;
  private readonly slotChild: Int32Array;
  private readonly slotMask: number;
  /** Longest proper suffix of each node's string that is also a trie node. */
  private readonly fail: Int32Array;
  /** Index (into `words`) of the word that ends at each node, or NONE. */
  private readonly ends: Int32Array;
  /** The nearest node on the fail chain (excluding the node itself) where a word ends, or NONE. */
  private readonly endLink: Int32Array;
  /** Code units that occur in some word: any other unit sends the scan back to the root at once. */
  private readonly used: Uint8Array;
  private readonly tables = unitTables();
  private readonly screen: WordScreen | null;

  /** The words as configured (first spelling of each), duplicates (once normalised) and blanks dropped. */
  readonly words: readonly string[];

  /** `screened: false` scans every text (for comparing the two ways). */
  constructor(words: Iterable<string>, { screened = true } = {}) {
    const next: Array<Map<number, number>> = [new Map()];
    const endsAt: number[] = [NONE];
    const kept: string[] = [];
    const keptUnits: number[][] = [];
    const used = new Uint8Array(0x10000);
    for (const raw of words) {
      const word = raw.trim();
      const form = normaliseRun(word).trim();
      if (!form) continue;
      let node = 0;
      const units: number[] = [];
      for (let i = 0; i < form.length; i++) {
        const c = matchedUnit(form.charCodeAt(i), this.tables);
        if (c === NONE) continue;
        units.push(c);
        used[c] = 1;
        let child = next[node].get(c);
        if (child === undefined) {
          child = next.length;
          next.push(new Map());
          endsAt.push(NONE);
          next[node].set(c, child);
        }
        node = child;
      }
      if (node !== 0 && endsAt[node] === NONE) {
        endsAt[node] = kept.length;
        kept.push(word);
        keptUnits.push(units);
      }
    }
    const n = next.length;
    const fail = new Int32Array(n);
    const endLink = new Int32Array(n).fill(NONE);
    // Breadth first, so a node's fail target is settled before its children's are computed.
    const queue = new Int32Array(n);
    let head = 0;
    let tail = 0;
    for (const child of next[0].values()) queue[tail++] = child;
    while (head < tail) {
      const node = queue[head++];
      for (const [c, child] of next[node]) {
        let f = fail[node];
        while (f !== 0 && !next[f].has(c)) f = fail[f];
        const suffix = next[f].get(c) ?? 0;
        fail[child] = suffix;
        endLink[child] = endsAt[suffix] !== NONE ? suffix : endLink[suffix];
        queue[tail++] = child;
      }
    }
    this.rootNext = new Int32Array(0x10000);
    for (const [c, child] of next[0]) this.rootNext[c] = child;
    // At most half full, so a probe for a missing transition meets a free slot soon.
    let size = 2;
    while (size < 2 * n) size *= 2;
    this.slotNode = new Int32Array(size).fill(FREE);
    this.slotUnit = new Uint16Array(size);
    this.slotChild = new Int32Array(size);
    this.slotMask = size - 1;
    for (let node = 1; node < n; node++) {
      for (const [c, child] of next[node]) {
        let slot = slotOf(node, c, this.slotMask);
        while (this.slotNode[slot] !== FREE) slot = (slot + 1) & this.slotMask;
        this.slotNode[slot] = node;
        this.slotUnit[slot] = c;
        this.slotChild[slot] = child;
      }
    }
    this.fail = fail;
    this.ends = Int32Array.from(endsAt);
    this.endLink = endLink;
    this.used = used;
    this.words = kept;
    this.screen = screened && kept.length > 0 && kept.length <= SCREEN_MAX_WORDS ? new WordScreen(keptUnits, this.tables) : null;
  }

  get empty(): boolean {
    return this.words.length === 0;
  }

  /**
   * Adds every word occurring in `text` to `found` (overlapping occurrences included). One pass over the text: a
   * unit that needs no normalising costs two table reads when no word uses it, else one transition plus fail steps
   * paid for by earlier forward steps; the runs that need normalising are normalised one by one (normalise.ts).
   */
  collect(text: string, found: Set<string>): void {
    if (this.screen && !this.screen.mayHold(text)) return;
    const { kind, fold } = this.tables;
    const { used, ends, endLink, rootNext, slotNode, slotUnit, slotChild, slotMask, fail } = this;
    const n = text.length;
    let node = 0;
    // The last unit read straight from the text, the state before it, and the words it was the first to find: a
    // unit that joins it (a combining mark after a letter) takes it back, to be read again with the run.
    let lastAt = -1;
    let before = 0;
    let newWords = NO_WORDS;
    for (let i = 0; i < n; i++) {
      const u = text.charCodeAt(i);
      const c = fold[u];
      if (c !== TO_NORMALISE) {
        before = node;
        lastAt = i;
        if (newWords !== NO_WORDS) newWords = NO_WORDS;
        if (used[c] === 0) {
          node = 0;
          continue;
        }
        // The transition of next(), written out: this loop is the scan's hot path.
        let slot = 0;
        while (node !== 0) {
          slot = slotOf(node, c, slotMask);
          let owner = slotNode[slot];
          while (owner !== FREE && (owner !== node || slotUnit[slot] !== c)) {
            slot = (slot + 1) & slotMask;
            owner = slotNode[slot];
          }
          if (owner !== FREE) break;
          node = fail[node];
        }
        node = node === 0 ? rootNext[c] : slotChild[slot];
        const hit = ends[node] !== NONE ? node : endLink[node];
        if (hit !== NONE) newWords = this.report(hit, found);
        continue;
      }
      let from = i;
      if (kind[u] >= JOINING && i > 0 && lastAt === i - 1) {
        from = lastAt;
        node = before;
        for (const word of newWords) found.delete(word);
      }
      const end = runEnd(text, i + 1, kind);
      node = this.readNormalised(normaliseRun(text.slice(from, end)), node, found);
      lastAt = -1;
      i = end - 1;
    }
  }

  /** Reads a normalised run from state `node`; returns the state after it. */
  private readNormalised(run: string, node: number, found: Set<string>): number {
    for (let j = 0; j < run.length; j++) {
      const c = matchedUnit(run.charCodeAt(j), this.tables);
      if (c === NONE) continue;
      node = this.used[c] === 0 ? 0 : this.next(node, c);
      const hit = this.ends[node] !== NONE ? node : this.endLink[node];
      if (hit !== NONE) this.report(hit, found);
    }
    return node;
  }

  /** The state after reading the folded unit `c` (one some word uses) in state `node`. */
  private next(node: number, c: number): number {
    const { rootNext, slotNode, slotUnit, slotChild, slotMask, fail } = this;
    let slot = 0;
    while (node !== 0) {
      slot = slotOf(node, c, slotMask);
      let owner = slotNode[slot];
      while (owner !== FREE && (owner !== node || slotUnit[slot] !== c)) {
        slot = (slot + 1) & slotMask;
        owner = slotNode[slot];
      }
      if (owner !== FREE) break;
      node = fail[node];
    }
    return node === 0 ? rootNext[c] : slotChild[slot];
  }

  /** Adds the words ending at `hit` and its end links to `found`; returns those it had not found before. */
  private report(hit: number, found: Set<string>): string[] {
    const added: string[] = [];
    for (; hit !== NONE; hit = this.endLink[hit]) {
      const word = this.words[this.ends[hit]];
      if (found.has(word)) continue;
      found.add(word);
      added.push(word);
    }
    return added;
  }

  /** The words occurring in `text`, in the order their first occurrence ends. */
  find(text: string): string[] {
    const found = new Set<string>();
    this.collect(text, found);
    return [...found];
  }
}
