import { request } from 'undici';
import type { RoutedChannel } from '../cache/routing.js';
import { DEFAULT_OPTIONS } from '../options/index.js';
import { prepareAttempt } from '../relay/attempt.js';
import type { ChatChunk } from '../relay/formats/openai/chat.js';
import { wireCodec } from '../relay/providers/index.js';
import type { ClientCall, Provider, Usage, UpstreamCall } from '../relay/types.js';

/*
 * One provider's calls without the relay around them, for its own tests: a channel snapshot, an OpenAI client's call,
 * the attempt as the pipeline prepares it, the built request sent to a mock, and a streamed answer read through the
 * wire's decoder.
 */

export function routedChannel(type: number, key: string, fields: Partial<RoutedChannel> = {}): RoutedChannel {
  return {
    id: type, type, name: `type-${type}`, key, baseUrl: '', other: '', organization: '', testModel: '', models: [], groups: ['default'],
    modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
    ...fields,
  };
}

/** An OpenAI client's call: a chat with a system prompt and "Hello" (plus `extra`), or another mode's body. */
export function clientCall(model: string, extra: Record<string, unknown> = {}, mode: ClientCall['mode'] = 'chat'): ClientCall {
  const json: Record<string, unknown> =
    mode === 'chat' ? { model, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }], ...extra } : { model, ...extra };
  return { format: 'openai', mode, model, stream: json.stream === true, json, raw: Buffer.from(JSON.stringify(json)), clientWantsStreamUsage: false, maxTokens: 0 };
}

/** The attempt on a channel as the pipeline prepares it (body converted to the provider's wire). */
export const attemptOn = (provider: Provider, call: ClientCall, channel: RoutedChannel, key = channel.key): UpstreamCall =>
  prepareAttempt(provider, { call, channel, upstreamModel: call.model, key, options: DEFAULT_OPTIONS });

export async function sendBuilt(provider: Provider, up: UpstreamCall) {
  const req = await provider.build(up);
  return request(req.url, { method: req.method, headers: req.headers, body: req.body as string | Buffer });
}

export interface ReadStream {
  chunks: ChatChunk[];
  /** The connection dropped before the body ended. */
  cut: boolean;
  failure: { type: string; message: string } | null;
  partial: Usage | null;
}

/** A streamed answer read through the wire's decoder; a dropped connection ends it like a body that ended. */
export async function readStreamed(provider: Provider, up: UpstreamCall): Promise<ReadStream> {
  const res = await sendBuilt(provider, up);
  const decoder = wireCodec(up.wire).streamDecoder(up);
  const chunks: ChatChunk[] = [];
  let cut = false;
  try {
    for await (const piece of res.body) chunks.push(...decoder.push(piece as Buffer));
    chunks.push(...decoder.finish());
  } catch {
    cut = true;
  }
  return { chunks, cut, failure: decoder.failure ?? null, partial: decoder.partialUsage?.() ?? null };
}

/** The content the chunks carry, joined. */
export const streamedText = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
