import type { RoutedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import { pickKey } from './channel-keys.js';
import { prepareAttempt } from './attempt.js';
import { checkModelAllowed, type Caller } from './auth.js';
import { chooseChannel } from './distributor.js';
import { unroutable } from './availability.js';
import { upstreamError } from './errors.js';
import { canonicalForCounting } from './formats/index.js';
import { providerFor, wireCodec } from './providers/index.js';
import { countChatPromptTokens, countTextTokens } from './tokenizer.js';
import type { Attempt, ClientCall } from './types.js';

/*
 * Prompt token counts (Claude's count_tokens, Gemini's countTokens, Responses' input_tokens), free of charge. The
 * channel is chosen as for a relayed call (group, model, priority, weights, model mapping); an upstream that counts
 * (Anthropic, Bedrock, Vertex, Gemini, OpenAI's Responses) is asked with the request in its own format; elsewhere, or
 * when no upstream could answer, the count is made here with the model family's tokenizer.
 */

/** The count made here, on the canonical request (or the raw body when it has no canonical form). */
export function localCount(call: ClientCall): number {
  const canonical = canonicalForCounting(call);
  if (canonical) return countChatPromptTokens(canonical, call.model);
  return countTextTokens(call.raw?.toString('utf8') ?? '', call.model);
}

function candidates(ctx: AppContext, caller: Caller, model: string): RoutedChannel[][] {
  if (caller.pinnedChannelId !== null) {
    const pinned = ctx.routing.channel(caller.pinnedChannelId);
    return pinned && pinned.status === 1 ? [[pinned]] : [];
  }
  return ctx.routing.tiers(caller.group, model).map((tier) => [...tier]);
}

export async function countPromptTokens(ctx: AppContext, caller: Caller, call: ClientCall): Promise<number> {
  checkModelAllowed(caller.token, call.model);
  const tiers = candidates(ctx, caller, call.model);
  if (tiers.length === 0) throw unroutable(ctx, caller.group, call.model);
  const tried = new Set<number>();
  const attempts = Math.max(0, ctx.options.get('RetryTimes')) + 1;
  for (let i = 0; i < attempts; i++) {
    const channel = chooseChannel(tiers, tried, Math.random, (id) => ctx.relay.breaker.isOpen(id));
    if (!channel) break;
    tried.add(channel.id);
    const provider = providerFor(channel.type);
    if (!provider.supports('chat', channel)) continue;
    const attempt: Attempt = { call, channel, upstreamModel: channel.modelMapping[call.model] || call.model, key: pickKey(channel)?.key ?? '', options: ctx.options };
    // What the channel could not be sent is refused here too (400), as the call itself would be.
    const up = prepareAttempt(provider, attempt);
    let counting;
    try {
      counting = provider.countTokens ? await provider.countTokens(up, up.converted ?? call.json ?? {}) : null;
    } catch {
      continue;
    }
    if (!counting) return localCount(call);
    let answer;
    try {
      answer = await ctx.relay.upstream.via(channel.settings?.proxy).fetch(counting.request).answer;
    } catch {
      continue;
    }
    const text = answer.body.toString('utf8');
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      const count = readCount(text, counting.read);
      if (count !== null) return count;
      continue;
    }
    // The client's own body refused by an upstream of its format is the client's error; anything else is ours.
    if (up.converted === null && answer.statusCode === 400) {
      const parsed = provider.parseError?.(answer.statusCode, text, answer.headers) ?? wireCodec(up.wire).parseError(answer.statusCode, text);
      throw upstreamError(400, parsed.message, parsed.code || 'upstream_400', parsed.type);
    }
  }
  return localCount(call);
}

function readCount(text: string, read: (answer: Record<string, unknown>) => number | null): number | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? read(parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
