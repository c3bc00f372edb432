import { callForChannel, overrideConverted } from './channel-request.js';
import { NO_SETTINGS } from './channel-settings.js';
import { RelayError } from './errors.js';
import { canonicalOf, clientFieldName } from './formats/index.js';
import { wireCodec } from './providers/index.js';
import type { Attempt, Provider, UpstreamCall } from './types.js';

/**
 * The attempt with its body format decided: the client's own body when the upstream speaks the client's format,
 * else the request converted through the canonical shape. A request the target format cannot express is the
 * client's error (400), not the channel's.
 */
export function prepareAttempt(provider: Provider, attempt: Attempt): UpstreamCall {
  const wire = provider.wire(attempt);
  const settings = attempt.channel.settings;
  const passthrough = wire === attempt.call.format;
  if (settings && settings !== NO_SETTINGS) attempt = { ...attempt, call: callForChannel(attempt.call, settings, passthrough) };
  if (passthrough) return upstreamCall(attempt, wire, null);
  try {
    const canonical = canonicalOf(attempt.call);
    // Per attempt: the next channel's wire may leave out other hints.
    attempt.dropped = attempt.call.dropped ? attempt.call.dropped.slice() : [];
    const fromClient = attempt.dropped.length;
    const converted = wireCodec(wire).encode(canonical, attempt, provider.withholds?.(attempt));
    for (let i = fromClient; i < attempt.dropped.length; i++) attempt.dropped[i] = clientFieldName(attempt.call.format, attempt.dropped[i]);
    return upstreamCall(attempt, wire, settings ? overrideConverted(converted, settings) : converted);
  } catch (err) {
    if (err instanceof RelayError) throw err;
    // A conversion that broke on a shape the body check let through: the client learns only that it could not be
    // converted (never JavaScript's own words); the failure itself is logged (routes/endpoint.ts).
    const failure = new RelayError(400, '请求无法转换为上游格式', 'convert_request_failed', 'invalid_request_error');
    failure.cause = err;
    throw failure;
  }
}

/** Written out field by field: an object spread here took more time than the rest of the request's routing. */
function upstreamCall(a: Attempt, wire: UpstreamCall['wire'], converted: UpstreamCall['converted']): UpstreamCall {
  return { call: a.call, channel: a.channel, upstreamModel: a.upstreamModel, key: a.key, options: a.options, wire, converted, dropped: a.dropped };
}
