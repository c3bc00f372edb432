import type { AppContext } from '../context.js';
import { sensitiveWordMatcher } from '../services/sensitive-words/index.js';
import { RelayError } from './errors.js';
import { clientFormat } from './formats/index.js';
import type { RelayInput } from './pipeline.js';

/** Words named in one warning line at most (the rest are counted). */
const LOGGED_WORDS = 20;

/**
 * The sensitive-word check of a call's prompt (CheckSensitiveEnabled and CheckSensitiveOnPromptEnabled): a call
 * whose text contains a listed word is refused with 400 before anything is reserved or charged. As in the
 * established gateway the caller is not told which words matched; the server log is (a warning).
 */
export function refuseSensitivePrompt(ctx: AppContext, input: RelayInput): void {
  const { options } = ctx;
  if (!options.get('CheckSensitiveEnabled') || !options.get('CheckSensitiveOnPromptEnabled')) return;
  const matcher = sensitiveWordMatcher(options);
  if (!matcher) return;
  const { call, caller, ex } = input;
  const found = new Set<string>();
  clientFormat(call.format).promptTexts(call, (text) => matcher.collect(text, found));
  if (found.size === 0) return;
  const words = [...found];
  const more = words.length > LOGGED_WORDS ? ` (+${words.length - LOGGED_WORDS})` : '';
  ctx.log.warn(
    { reqId: ex.id, userId: caller.user.id, tokenId: caller.token?.id ?? 0, model: call.model },
    `user sensitive words detected: ${words.slice(0, LOGGED_WORDS).join(', ')}${more}`,
  );
  throw new RelayError(400, 'sensitive words detected', 'sensitive_words_detected');
}
