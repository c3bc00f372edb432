import type { IncomingHttpHeaders } from 'node:http';
import type { RoutedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import { prepareAttempt } from './attempt.js';
import { pickKey } from './channel-keys.js';
import { RelayError } from './errors.js';
import { providerFor, wireCodec } from './providers/index.js';
import type { ClientCall, Provider, UpstreamCall, UpstreamRequest } from './types.js';

export interface ChannelTestResult {
  success: boolean;
  message: string;
  timeMs: number;
}

const EMBEDDING_MODEL = /embed|bge-|m3e/i;

const RERANK_MODEL = /rerank/i;

/** The smallest real call a model answers: a two-letter chat, an embedding of two words, or a rerank of one document. */
function testCall(model: string): ClientCall {
  if (RERANK_MODEL.test(model)) {
    return { format: 'openai', mode: 'rerank', model, stream: false, json: { model, query: 'hello', documents: ['hello world'] }, clientWantsStreamUsage: false, maxTokens: 0 };
  }
  const json: Record<string, unknown> = EMBEDDING_MODEL.test(model)
    ? { model, input: 'hello world' }
    : /^o\d/.test(model)
      ? { model, messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 10 }
      : { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: model.startsWith('gemini') ? 300 : 10 };
  return {
    format: 'openai',
    mode: EMBEDDING_MODEL.test(model) ? 'embeddings' : 'chat',
    model,
    stream: false,
    json,
    clientWantsStreamUsage: false,
    maxTokens: 10,
  };
}

interface TestAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** The test call's answer: through the provider's own transport when it has one (a WebSocket), else one request. */
async function testAnswer(ctx: AppContext, provider: Provider, up: UpstreamCall, req: UpstreamRequest, signal: AbortSignal): Promise<TestAnswer> {
  const upstream = ctx.relay.upstream.via(up.channel.settings?.proxy);
  const own = provider.fetch?.(up, req, upstream);
  if (!own) {
    const res = await upstream.send(req, signal);
    return { statusCode: res.statusCode, headers: res.headers, text: await res.body.text() };
  }
  const stop = () => own.cancel();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const answer = await own.answer;
    return { statusCode: answer.statusCode, headers: answer.headers, text: answer.body.toString('utf8') };
  } catch (err) {
    throw signal.aborted ? signal.reason : err;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Sends one test call through the channel's provider and times it. Never charges anyone. `key`: one key of a
 * multi-key channel (else one is chosen as for a call).
 */
export async function testChannel(ctx: AppContext, channel: RoutedChannel, model: string, key = pickKey(channel)?.key ?? ''): Promise<ChannelTestResult> {
  const call = testCall(model);
  const upstreamModel = channel.modelMapping[model] || model;
  const provider = providerFor(channel.type);
  if (!provider.supports(call.mode, channel)) return { success: false, message: '该渠道不支持测试此模型', timeMs: 0 };
  const started = Date.now();
  const timeout = AbortSignal.timeout(60_000);
  try {
    const up = prepareAttempt(provider, { call, channel, upstreamModel, key, options: ctx.options });
    const req = await provider.build(up);
    const res = await testAnswer(ctx, provider, up, req, timeout);
    const text = res.text;
    const timeMs = Date.now() - started;
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    // An error the upstream reports inside a 2xx answer fails the test like any other.
    const status = ok ? (provider.answerError?.(up, text) ?? null) : res.statusCode;
    if (status !== null) {
      const parsed = provider.parseError?.(status, text, res.headers) ?? wireCodec(up.wire).parseError(status, text);
      return { success: false, message: parsed.message, timeMs };
    }
    try {
      JSON.parse(text);
    } catch {
      return { success: false, message: '上游返回的不是合法的 JSON', timeMs };
    }
    return { success: true, message: '', timeMs };
  } catch (err) {
    if (err instanceof RelayError) return { success: false, message: err.message, timeMs: Date.now() - started };
    const timedOut = (err as Error).name === 'TimeoutError';
    return { success: false, message: timedOut ? '测试超时' : '请求上游地址失败', timeMs: Date.now() - started };
  }
}
