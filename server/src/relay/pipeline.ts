import { LOG_TYPE } from '@switchyard/shared';
import type { RoutedChannel } from '../cache/routing.js';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import type { RelayExchange } from './exchange.js';
import type { NewLog } from '../db/schema.js';
import type { Reservation } from '../store/quota.js';
import type { Caller } from './auth.js';
import { checkModelAllowed, loggedTokenName } from './auth.js';
import { costOf, estimateOf, imagePriceFactor, pricingFor, pricingLog, scaledPricing, type Pricing } from './billing.js';
import { estimatePromptTokens } from './calls.js';
import { unroutable } from './availability.js';
import { chooseChannel, shouldRetry, stickyChannel } from './distributor.js';
import { RelayError, settlementBacklog, shuttingDown, unreachableUpstream, upstreamBusy, upstreamError } from './errors.js';
import { refusalFor } from './refusals.js';
import { refuseSensitivePrompt } from './prompt-words.js';
import { prepareAttempt } from './attempt.js';
import { clientFormat } from './formats/index.js';
import type { StreamCut } from './formats/passthrough-meter.js';
import { disablesChannel, reportChannelFailure } from './health.js';
import { CallKeys } from './channel-keys.js';
import { limitModelRequests } from './model-rate-limit.js';
import { providerFor, wireCodec } from './providers/index.js';
import { deliverBinary, deliverConvertedJson, deliverConvertedStream, deliverJson, deliverStream, type BeforeEnd, type Delivery, type Ending } from './respond.js';
import { affinityTtlMs, SessionAffinity, sessionOf } from './session-affinity.js';
import { UpstreamBusy } from './upstream-limit.js';
import { UpstreamCut, type BufferedCall, type StreamedResponse, type StreamingCall, type WholeAnswer } from './upstream.js';
import type { Attempt, ClientCall, Provider, UpstreamCall, UpstreamRequest } from './types.js';

/*
 * One relay call: price it, reserve its estimate, try channels until one answers (retrying only before any byte
 * reached the client), deliver the answer while metering it, then settle the real cost and log it.
 */

export interface RelayInput {
  call: ClientCall;
  caller: Caller;
  ex: RelayExchange;
}

const RATE_LIMITED_MESSAGE = '当前分组上游负载已饱和，请稍后再试';

/** status_code_mapping: {"400": "500"} turns an upstream 400 into a 500 before the retry decision. */
export function mapStatus(channel: RoutedChannel, status: number): number {
  const mapped = channel.statusCodeMapping[String(status)];
  const n = mapped === undefined ? NaN : Number(mapped);
  return Number.isInteger(n) && n >= 100 && n <= 599 ? n : status;
}

/** A channel named by the caller or by an earlier task: it must exist and be enabled. */
export function pinnedChannel(ctx: AppContext, id: number): RoutedChannel {
  const channel = ctx.routing.channel(id);
  if (!channel) throw new RelayError(400, `渠道 #${id} 不存在`, 'channel_not_found');
  if (channel.status !== 1) throw new RelayError(403, `渠道 #${id} 已被禁用`, 'channel_disabled');
  return channel;
}

/** Takes the reservation, or refuses the call in words that say whose balance is short. */
export async function reserve(ctx: AppContext, reservation: Reservation): Promise<void> {
  const outcome = await ctx.relay.quotaGate.reserve(reservation);
  if (outcome === 'user_short') throw new RelayError(403, '用户额度不足', 'insufficient_user_quota', 'insufficient_quota');
  if (outcome === 'token_short') throw new RelayError(403, '令牌额度不足', 'insufficient_token_quota', 'insufficient_quota');
}

/**
 * Balances far above the estimate (100x, for both the user and a limited token) make the reservation pointless:
 * the call is charged at settlement only, saving a write on the hot path. The balances read here are the cache's
 * hints; the margin is what keeps a stale hint harmless.
 */
const TRUST_MARGIN = 100;

function trusted(caller: Caller, estimate: number): boolean {
  const floor = estimate * TRUST_MARGIN;
  if (estimate <= 0 || caller.user.quota <= floor) return false;
  const token = caller.token;
  return !token || Boolean(token.unlimited_quota) || token.remain_quota > floor;
}

function pricingOf(ctx: AppContext, call: ClientCall, group: string): Pricing {
  const base = pricingFor(ctx.options, call.model, group);
  return call.mode === 'images' && call.json ? scaledPricing(base, imagePriceFactor(call.model, call.json)) : base;
}

/** An image call that delivered fewer images than it asked for (an async task that made only some) pays for those. */
function pricingDelivered(ctx: AppContext, call: ClientCall, group: string, pricing: Pricing, delivery: Delivery): Pricing {
  const made = delivery.images;
  if (call.mode !== 'images' || made === undefined || !call.json) return pricing;
  const asked = typeof call.json.n === 'number' && call.json.n > 0 ? call.json.n : 1;
  if (made >= asked) return pricing;
  const base = pricingFor(ctx.options, call.model, group);
  return scaledPricing(base, made === 0 ? 0 : imagePriceFactor(call.model, { ...call.json, n: made }));
}

export async function relayCall(ctx: AppContext, input: RelayInput): Promise<void> {
  const { call, caller, ex } = input;
  const res = ex.res;
  const startedAt = Date.now();
  const apiVersion = ex.query['api-version'];
  if (typeof apiVersion === 'string' && apiVersion) call.apiVersion = apiVersion;
  const limited = limitModelRequests(ctx, input);
  if (limited) await limited;
  checkModelAllowed(caller.token, call.model);
  if (ctx.relay.settler.full) throw settlementBacklog();
  const pinned = caller.pinnedChannelId !== null ? pinnedChannel(ctx, caller.pinnedChannelId) : null;
  const tiers = pinned ? [[pinned]] : ctx.routing.tiers(caller.group, call.model);
  if (tiers.length === 0) throw unroutable(ctx, caller.group, call.model);
  refuseSensitivePrompt(ctx, input);
  const pricing = pricingOf(ctx, call, caller.group);

  const estimate = estimateOf(pricing, estimatePromptTokens(call), call.maxTokens, ctx.options.get('PreConsumedQuota'));
  const reservation: Reservation = {
    userId: caller.user.id,
    tokenId: caller.token?.id ?? 0,
    tokenUnlimited: !caller.token || Boolean(caller.token.unlimited_quota),
    amount: trusted(caller, estimate) ? 0 : estimate,
  };
  if (reservation.amount > 0) await reserve(ctx, reservation);
  // Until it settles, this node's cached balances count the call at its estimate: calls arriving meanwhile see
  // it, so a burst cannot all take the no-reservation path on a balance that covers only part of it.
  noteCharge(ctx, input, estimate);

  // The current attempt's way to stop its upstream call when the client goes away or the server stops the call.
  let cancel: (() => void) | null = null;
  let clientGone = false;
  let stopped: StreamCut | null = null;
  const onClose = () => {
    if (!res.writableFinished) {
      clientGone = true;
      cancel?.();
    }
  };
  const stop = (reason: StreamCut) => {
    stopped = reason;
    cancel?.();
  };
  res.on('close', onClose);
  // A client that left while its reservation waited for balance is gone already.
  if (res.destroyed) onClose();
  ctx.relay.calls.add(res, stop);

  const chain: number[] = [];
  const tried = new Set<number>();
  const metrics = ctx.metrics.relay;
  const attempts = pinned ? 1 : Math.max(0, ctx.options.get('RetryTimes')) + 1;
  const { breaker } = ctx.relay;
  // Answers read whole (everything but streams and speech) go through the upstream client's cheaper buffered path.
  const buffered = !call.stream && call.mode !== 'speech';
  let lastError: RelayError | null = null;
  const keys = new CallKeys();
  // An agent session's turns go where its last one was answered (session-affinity.ts).
  const affinityTtl = pinned ? 0 : affinityTtlMs(ctx.options, caller.group);
  const session = affinityTtl > 0 ? sessionOf(call, ex.headers) : null;
  const affinityKey = session ? SessionAffinity.keyOf(caller.user.id, caller.group, call.model, session) : null;
  const sticky = affinityKey ? ctx.relay.affinity.lookup(affinityKey) : null;
  // A multi-key channel whose key was refused: the next attempt takes another of its keys (channel-keys.ts).
  let sameChannel: RoutedChannel | null = null;
  try {
    for (let tries = 0; tries < attempts && !clientGone && !stopped; tries++) {
      const channel: RoutedChannel | null | undefined =
        sameChannel ?? pinned ?? (tries === 0 && sticky ? stickyChannel(tiers, sticky.channelId, breaker) : undefined) ?? chooseChannel(tiers, tried, Math.random, (id) => breaker.isOpen(id));
      sameChannel = null;
      if (!channel) break;
      if (chain.length > 0) metrics.retried(chain[chain.length - 1]);
      tried.add(channel.id);
      chain.push(channel.id);
      const provider = providerFor(channel.type);
      if (!provider.supports(call.mode, channel)) {
        lastError = new RelayError(400, `渠道不支持此接口`, 'unsupported_mode');
        continue;
      }
      const picked = keys.pick(channel, sticky?.channelId === channel.id ? sticky.keyIndex : -1);
      if (!picked) {
        lastError = upstreamError(503, '渠道没有可用的密钥', 'no_enabled_key');
        continue;
      }
      const attempt: Attempt = { call, channel, upstreamModel: channel.modelMapping[call.model] || call.model, key: picked.key, options: ctx.options };
      const up = prepareAttempt(provider, attempt);
      let req: UpstreamRequest;
      try {
        req = await provider.build(up);
      } catch (err) {
        // A channel that cannot build its call (malformed key, no access token) fails like an unreachable one.
        if (err instanceof RelayError && err.local) throw err;
        lastError = err instanceof RelayError ? err : unreachableUpstream();
        breaker.failure(channel.id);
        if (lastError.credentialsRefused) {
          void reportChannelFailure(ctx, channel, { status: 401, code: lastError.code ?? '', type: 'authentication_error', message: lastError.message, credentials: true }, picked.index);
          if (keys.retryOnAnother(channel)) {
            sameChannel = channel;
            tries--;
          }
        }
        continue;
      }
      const upstream = ctx.relay.upstream.via(channel.settings?.proxy);
      const pending = buffered ? (provider.fetch?.(up, req, upstream) ?? upstream.fetch(req)) : (provider.stream?.(up, req, upstream) ?? upstream.stream(req));
      cancel = () => pending.cancel();
      const outcome = await answerOf(pending, provider.answerError && ((body) => provider.answerError!(up, body)));
      if ((clientGone || stopped) && (outcome.kind === 'unreachable' || outcome.kind === 'cut')) break;
      if (outcome.kind === 'busy') {
        // The gateway's own limit, not the channel's failure: another channel (origin) may have room.
        lastError = upstreamBusy();
        continue;
      }
      if (outcome.kind === 'unreachable') {
        metrics.upstreamFailed(channel.id, 0);
        lastError = unreachableUpstream();
        breaker.failure(channel.id);
        void reportChannelFailure(ctx, channel, { status: 0, code: '', type: '', message: '' });
        continue;
      }
      if (outcome.kind === 'cut') {
        metrics.upstreamFailed(channel.id, 0);
        // Read whole before anything reaches the client: an answer cut here is still a retryable failure.
        lastError = upstreamError(502, '上游连接中断', 'upstream_cut');
        breaker.failure(channel.id);
        continue;
      }
      if (outcome.kind === 'refused') {
        const { statusCode, headers, text } = outcome;
        metrics.upstreamFailed(channel.id, statusCode);
        const parsed = provider.parseError?.(statusCode, text, headers) ?? wireCodec(up.wire).parseError(statusCode, text);
        const status = mapStatus(channel, statusCode);
        lastError = refusalFor(status, statusCode, parsed, up.wire);
        // A refused key is this channel's failure, whatever status the upstream chose to say it in.
        const retry = shouldRetry(status) || parsed.credentials === true;
        if (retry) breaker.failure(channel.id);
        // Auto-disable judges the upstream's own answer, not what the caller is told.
        const signal = { status: statusCode, ...parsed };
        void reportChannelFailure(ctx, channel, signal, picked.index);
        if (disablesChannel(signal, ctx.options.get('AutomaticDisableKeywords')) && keys.retryOnAnother(channel)) {
          // Another key of the same channel, without taking one of the call's retries (channel-keys.ts).
          sameChannel = channel;
          tries--;
          continue;
        }
        if (!retry) break;
        continue;
      }
      const answer = outcome.answer;
      breaker.success(channel.id);
      if (affinityKey) ctx.relay.affinity.remember(affinityKey, channel.id, picked.index, affinityTtl);
      // Settled (journaled) as the answer ends, before its last bytes go out (respond.ts: Ending).
      const ending = (delivery: Delivery) => {
        const billed = pricingDelivered(ctx, call, caller.group, pricing, delivery);
        settle(ctx, input, { pricing: billed, reservation, estimate, channel, chain, delivery, startedAt, upstreamModel: up.upstreamModel });
        return ctx.relay.settler.whenJournaled;
      };
      const delivering = deliver(provider, up, answer, res, ending, () => clientGone, () => stopped);
      if (delivering instanceof Promise) await delivering;
      return;
    }
  } catch (err) {
    refund(ctx, reservation);
    noteCharge(ctx, input, -estimate);
    throw err;
  } finally {
    res.off('close', onClose);
    ctx.relay.calls.delete(res);
  }
  refund(ctx, reservation);
  noteCharge(ctx, input, -estimate);
  if (clientGone) return;
  if (stopped) throw shuttingDown();
  if (!lastError) throw unroutable(ctx, caller.group, call.model);
  ctx.metrics.relay.refused(lastError.status);
  ex.trace?.set({ 'gen_ai.request.model': call.model, 'switchyard.channels_tried': chain.join(','), 'error.type': lastError.code ?? String(lastError.status) });
  if (lastError.status === 429) throw upstreamError(429, RATE_LIMITED_MESSAGE, lastError.code ?? 'rate_limited', lastError.type);
  throw lastError;
}

/**
 * Names the hint fields a converted call left out, each under the name the client sent it by (what the target wire
 * left out is mapped back in attempt.ts), so an operator sees them in the browser's network tab or a log line.
 */
const DROPPED_HEADER = 'X-Switchyard-Dropped';
const droppedHeader = (names: readonly string[]) => [...new Set(names)].join(',');

function deliver(
  provider: Provider,
  up: UpstreamCall,
  answer: StreamedResponse | WholeAnswer,
  out: ServerResponse,
  ending: Ending,
  clientGone: () => boolean,
  stopped: () => StreamCut | null,
): Delivery | Promise<Delivery> {
  const { call } = up;
  const client = clientFormat(call.format);
  const passthrough = up.converted === null;
  if (up.dropped && up.dropped.length > 0) out.setHeader(DROPPED_HEADER, droppedHeader(up.dropped));
  if ('body' in answer) {
    const whole = answer;
    const codec = up.wire === 'openai' ? null : wireCodec(up.wire);
    if (passthrough) {
      const decode = codec ? (body: Buffer) => codec.decode(body, up) : undefined;
      return deliverJson(call, whole, out, ending, { usage: (body) => client.usageFromJson(body, call), decode });
    }
    return deliverConvertedJson(call, whole, out, ending, { decode: (body) => wireCodec(up.wire).decode(body, up), encode: (answer) => client.fromCanonical(answer, call), beforeEnd: keptTurn(call) });
  }
  const streamed = answer;
  if (!call.stream) return deliverBinary(call, streamed, out, ending, clientGone);
  const adapt = provider.streamAdapter?.(up);
  if (passthrough) return deliverStream(call, streamed, out, ending, clientGone, stopped, client.streamMeter(call), adapt);
  const codec = {
    decoder: wireCodec(up.wire).streamDecoder(up),
    encoder: client.streamEncoder(call, estimatePromptTokens(call)),
    adapt,
    beforeEnd: keptTurn(call),
  };
  return deliverConvertedStream(call, streamed, out, ending, clientGone, stopped, codec);
}

/** A Responses answer the gateway produced is written where every worker reads it before the answer ends. */
function keptTurn(call: ClientCall): BeforeEnd | undefined {
  const turn = call.turn;
  return turn && (() => turn.keep());
}

const utf8 = new TextDecoder();

/** What one upstream call came to: a 2xx answer to deliver, a refusal (non-2xx status), a cut, or no answer. */
type AttemptOutcome =
  | { kind: 'answer'; answer: WholeAnswer | StreamedResponse }
  | { kind: 'refused'; statusCode: number; headers: IncomingHttpHeaders; text: string }
  | { kind: 'cut' }
  | { kind: 'unreachable' }
  /** Not sent: this node already has UPSTREAM_MAX_CONNECTIONS calls in flight to the channel's origin. */
  | { kind: 'busy' };

const ok = (status: number) => status >= 200 && status < 300;

/** The status an error inside a 2xx answer stands for (Provider.answerError), null for a real answer. */
type ErrorInAnswer = (body: string) => number | null;

const isEventStream = (headers: IncomingHttpHeaders) => String(headers['content-type'] ?? '').includes('text/event-stream');

async function answerOf(pending: BufferedCall | StreamingCall, errorIn?: ErrorInAnswer): Promise<AttemptOutcome> {
  if ('answer' in pending) {
    try {
      const answer = await pending.answer;
      if (ok(answer.statusCode)) {
        if (!errorIn) return { kind: 'answer', answer };
        const text = utf8.decode(answer.body);
        const status = errorIn(text);
        return status === null ? { kind: 'answer', answer } : { kind: 'refused', statusCode: status, headers: answer.headers, text };
      }
      return { kind: 'refused', statusCode: answer.statusCode, headers: answer.headers, text: utf8.decode(answer.body) };
    } catch (err) {
      if (err instanceof UpstreamBusy) return { kind: 'busy' };
      if (!(err instanceof UpstreamCut)) return { kind: 'unreachable' };
      // A refusal whose body broke off is still the refusal its status says.
      return ok(err.statusCode) ? { kind: 'cut' } : { kind: 'refused', statusCode: err.statusCode, headers: err.headers, text: '' };
    }
  }
  let res: StreamedResponse;
  try {
    res = await pending.head;
  } catch (err) {
    return { kind: err instanceof UpstreamBusy ? 'busy' : 'unreachable' };
  }
  if (ok(res.statusCode) && (!errorIn || isEventStream(res.headers))) return { kind: 'answer', answer: res };
  const text = await res.text();
  // A stream call answered with a body that is not a stream: the error the upstream put in its place.
  const status = ok(res.statusCode) ? (errorIn?.(text) ?? 502) : res.statusCode;
  return { kind: 'refused', statusCode: status, headers: res.headers, text };
}

function refund(ctx: AppContext, reservation: Reservation): void {
  if (reservation.amount <= 0) return;
  ctx.relay.settler.add({ reservation, cost: 0, channelId: 0, countsAsRequest: false, log: null });
  ctx.relay.quotaGate.release(reservation.userId);
}

/** A change of this node's cached balance hints for the caller (money itself moves only in the store). */
function noteCharge(ctx: AppContext, input: RelayInput, amount: number): void {
  if (amount !== 0) ctx.authCache.noteCharge(input.caller.token?.key ?? '', input.caller.user.id, amount);
}

interface Outcome {
  pricing: Pricing;
  reservation: Reservation;
  /** What the cached balances were charged when the call was admitted. */
  estimate: number;
  channel: RoutedChannel;
  chain: number[];
  delivery: Delivery;
  startedAt: number;
  upstreamModel: string;
}

function settle(ctx: AppContext, input: RelayInput, o: Outcome): void {
  const { call, caller } = input;
  const { usage } = o.delivery;
  const nothing = usage.promptTokens + usage.completionTokens === 0 && o.pricing.kind === 'ratio';
  const cost = nothing ? 0 : costOf(o.pricing, usage);
  const log = ctx.options.get('LogConsumeEnabled') ? consumeLog(input, o, cost, nothing) : null;
  ctx.relay.settler.add({ reservation: o.reservation, cost, channelId: o.channel.id, countsAsRequest: true, log });
  input.ex.trace?.set({
    'gen_ai.request.model': call.model,
    'switchyard.channel.id': o.channel.id,
    'switchyard.channels_tried': o.chain.join(','),
    'gen_ai.usage.input_tokens': usage.promptTokens,
    'gen_ai.usage.output_tokens': usage.completionTokens,
    'switchyard.quota': cost,
  });
  const now = Date.now();
  const firstByte = o.delivery.firstTokenAt ? (o.delivery.firstTokenAt - o.startedAt) / 1000 : -1;
  ctx.metrics.relay.answered(call.model, o.channel.id, input.ex.res.statusCode, (now - o.startedAt) / 1000, firstByte, cost);
  if (o.reservation.amount > 0) ctx.relay.quotaGate.release(o.reservation.userId);
  ctx.usage.record({
    userId: caller.user.id,
    username: caller.user.username,
    modelName: call.model,
    tokens: usage.promptTokens + usage.completionTokens,
    quota: cost,
    promptTokens: usage.promptTokens,
    cacheTokens: usage.cachedTokens,
  });
  noteCharge(ctx, input, cost - o.estimate);
}

/** The consume log of a settled call. */
function consumeLog(input: RelayInput, o: Outcome, cost: number, nothing: boolean): NewLog {
  const { call, caller, ex } = input;
  const { usage } = o.delivery;
  const described = pricingLog(o.pricing);
  // `other` is written as text: its pricing part is the same for every call at these prices.
  let other = `${described.otherOpening},"frt":${o.delivery.firstTokenAt ? o.delivery.firstTokenAt - o.startedAt : -1},"admin_info":{"use_channel":[${o.chain.join(',')}]}`;
  if (usage.cachedTokens) other += `,"cache_tokens":${usage.cachedTokens}`;
  if (usage.cacheCreationTokens && o.pricing.kind === 'ratio') {
    other += `,"cache_creation_tokens":${usage.cacheCreationTokens},"cache_creation_ratio":${o.pricing.cacheCreationRatio ?? 1}`;
    if (usage.cacheCreation1hTokens) {
      other += `,"cache_creation_tokens_1h":${usage.cacheCreation1hTokens},"cache_creation_ratio_1h":${o.pricing.cacheCreation1hRatio ?? o.pricing.cacheCreationRatio ?? 1}`;
    }
  }
  if (o.upstreamModel !== call.model) other += `,"is_model_mapped":true,"upstream_model_name":${JSON.stringify(o.upstreamModel)}`;
  let content = described.text;
  for (const note of [o.delivery.note, nothing ? '（可能是上游超时）' : '']) {
    if (note) content = content ? `${content}，${note}` : note;
  }
  const now = Date.now();
  return {
    user_id: caller.user.id,
    created_at: Math.floor(now / 1000),
    type: LOG_TYPE.CONSUME,
    content,
    username: caller.user.username,
    token_name: loggedTokenName(caller),
    model_name: call.model,
    quota: cost,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    use_time: Math.round((now - o.startedAt) / 1000),
    is_stream: call.stream ? 1 : 0,
    channel_id: o.channel.id,
    token_id: caller.token?.id ?? 0,
    group: caller.group,
    ip: ex.ip,
    other: `${other}}`,
    cache_tokens: usage.cachedTokens,
  };
}
