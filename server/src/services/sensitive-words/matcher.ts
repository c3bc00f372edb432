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

export class WordMatcher {
  /** Transitions of each trie node, by folded code unit. */
  private readonly next: Array<Map<number, number>>;
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
    this.next = next;
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
    const { table, used, next, fail, ends, endLink, words } = this;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = table[text.charCodeAt(i)];
      if (used[c] === 0) {
        node = 0;
        continue;
      }
      for (;;) {
        const child = next[node].get(c);
        if (child !== undefined) {
          node = child;
          break;
        }
        if (node === 0) break;
        node = fail[node];
      }
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
