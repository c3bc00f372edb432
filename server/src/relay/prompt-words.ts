import type { AppContext } from '../context.js';
import type { Options } from '../options/index.js';
import { sensitiveWordMatcher, type WordMatcher } from '../services/sensitive-words/index.js';
import { RelayError } from './errors.js';
import { clientFormat } from './formats/index.js';
import type { TextVisitor } from './formats/prompt-text.js';
import type { RelayInput } from './pipeline.js';

/** Words named in one warning line at most (the rest are counted). */
const LOGGED_WORDS = 20;

/** Who sent the texts, for the warning line. */
export interface TextSender {
  reqId?: string;
  userId: number;
  tokenId: number;
  model: string;
}

/** The matcher when the prompt check is on (CheckSensitiveEnabled and CheckSensitiveOnPromptEnabled) and lists a word. */
function promptMatcher(options: Pick<Options, 'get' | 'derive'>): WordMatcher | null {
  if (!options.get('CheckSensitiveEnabled') || !options.get('CheckSensitiveOnPromptEnabled')) return null;
  return sensitiveWordMatcher(options);
}

/**
 * The sensitive-word check of what a caller sends upstream: texts that contain a listed word are refused with 400
 * before anything is reserved or charged. As in the established gateway the caller is not told which words matched;
 * the server log is (a warning). Each text is scanned on its own, as it comes: nothing is joined.
 */
export function refuseSensitiveTexts(ctx: AppContext, sender: TextSender, texts: (visit: TextVisitor) => void): void {
  const matcher = promptMatcher(ctx.options);
  if (matcher) refuseFound(ctx, matcher, sender, texts);
}

function refuseFound(ctx: AppContext, matcher: WordMatcher, sender: TextSender, texts: (visit: TextVisitor) => void): void {
  const found = new Set<string>();
  texts((text) => matcher.collect(text, found));
  if (found.size === 0) return;
  const words = [...found];
  const more = words.length > LOGGED_WORDS ? ` (+${words.length - LOGGED_WORDS})` : '';
  ctx.log.warn(sender, `user sensitive words detected: ${words.slice(0, LOGGED_WORDS).join(', ')}${more}`);
  throw new RelayError(400, 'sensitive words detected', 'sensitive_words_detected');
}

/** The check of a relayed call: every text its client format says the call sends (formats/<format>/prompt-text.ts). */
export function refuseSensitivePrompt(ctx: AppContext, input: RelayInput): void {
  const matcher = promptMatcher(ctx.options);
  if (!matcher) return;
  const { call, caller, ex } = input;
  const sender = { reqId: ex.id, userId: caller.user.id, tokenId: caller.token?.id ?? 0, model: call.model };
  refuseFound(ctx, matcher, sender, (visit) => clientFormat(call.format).promptTexts(call, visit));
}
