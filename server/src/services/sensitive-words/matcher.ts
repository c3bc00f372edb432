/*
 * Aho-Corasick over UTF-16 code units. Words and text are folded to lower case one code unit at a time with the same
 * table, so matching ignores case, never shifts an offset and never allocates a lowered copy of the text. No other
 * normalisation (full-width forms, accents) is applied: the established gateway lower-cases only.
 */

let foldTable: Uint16Array | null = null;

/** Each code unit's lower case (its first unit, for İ whose lower case is two): 128 KiB, built on first use. */
function fold(): Uint16Array {
  if (foldTable) return foldTable;
  const table = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) table[c] = String.fromCharCode(c).toLowerCase().charCodeAt(0);
  foldTable = table;
  return table;
}

const NONE = -1;

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
  private readonly table = fold();

  /** The words as configured (first spelling of each), duplicates (after folding) and blanks dropped. */
  readonly words: readonly string[];

  constructor(words: Iterable<string>) {
    const table = this.table;
    const next: Array<Map<number, number>> = [new Map()];
    const endsAt: number[] = [NONE];
    const kept: string[] = [];
    const used = new Uint8Array(0x10000);
    for (const raw of words) {
      const word = raw.trim();
      if (!word) continue;
      let node = 0;
      for (let i = 0; i < word.length; i++) {
        const c = table[word.charCodeAt(i)];
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
      if (endsAt[node] === NONE) {
        endsAt[node] = kept.length;
        kept.push(word);
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
  }

  get empty(): boolean {
    return this.words.length === 0;
  }

  /**
   * Adds every word occurring in `text` to `found` (overlapping occurrences included). One pass over the text: each
   * code unit costs one table read when no word uses it, else one transition plus fail steps that are paid for by
   * earlier forward steps.
   */
  collect(text: string, found: Set<string>): void {
    const { table, used, rootNext, slotNode, slotUnit, slotChild, slotMask, fail, ends, endLink, words } = this;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = table[text.charCodeAt(i)];
      if (used[c] === 0) {
        node = 0;
        continue;
      }
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
      for (let hit = ends[node] !== NONE ? node : endLink[node]; hit !== NONE; hit = endLink[hit]) found.add(words[ends[hit]]);
    }
  }

  /** The words occurring in `text`, in the order their first occurrence ends. */
  find(text: string): string[] {
    const found = new Set<string>();
    this.collect(text, found);
    return [...found];
  }
}
