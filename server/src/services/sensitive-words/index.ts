import type { Options } from '../../options/index.js';
import { WordMatcher } from './matcher.js';

export { WordMatcher } from './matcher.js';

/*
 * The sensitive-word matcher of the current options. Options.derive forgets it whenever any option changes (on this
 * node or, through the bus, another); it is rebuilt only when the word list itself changed.
 */

let last: { list: string; matcher: WordMatcher | null } | null = null;

/** One word per line (SensitiveWords), surrounding blanks and empty lines dropped. */
export function wordList(list: string): string[] {
  return list.split('\n').map((word) => word.trim()).filter(Boolean);
}

function matcherOf(list: string): WordMatcher | null {
  if (last?.list === list) return last.matcher;
  const matcher = new WordMatcher(wordList(list));
  last = { list, matcher: matcher.empty ? null : matcher };
  return last.matcher;
}

/** The matcher of SensitiveWords; null when the list has no word. */
export function sensitiveWordMatcher(options: Pick<Options, 'get' | 'derive'>): WordMatcher | null {
  return options.derive('sensitive-words', () => matcherOf(options.get('SensitiveWords')));
}
