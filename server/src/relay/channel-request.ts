import type { ChannelSettings } from './channel-settings.js';
import { withSystemPrompt } from './formats/system-prompt.js';
import type { ClientCall } from './types.js';

/*
 * A channel's settings applied to one attempt, the same way for every provider: the system prompt goes into a chat
 * request in the client's format (before any conversion, so a converted request carries it too), and param_override
 * is written over the body the upstream gets, after conversion, or over the client's body when it passes through.
 */

const hasOverride = (settings: ChannelSettings) => Object.keys(settings.paramOverride).length > 0;

/**
 * The call as this channel sends it: the same object when the channel changes nothing, else a copy with its own
 * body (the call is shared by every attempt, and other channels must not see this one's settings).
 */
export function callForChannel(call: ClientCall, settings: ChannelSettings, passthrough: boolean): ClientCall {
  const original = call.json;
  if (!original) return call;
  let json = original;
  if (call.mode === 'chat' && settings.systemPrompt !== '') {
    json = withSystemPrompt(call.format, json, settings.systemPrompt, settings.systemPromptOverride);
  }
  if (passthrough && hasOverride(settings)) json = Object.assign({}, json, settings.paramOverride);
  if (json === original) return call;
  return { ...call, json, raw: Buffer.from(JSON.stringify(json)), canonical: undefined };
}

/** A converted body with the channel's param_override written over it. */
export function overrideConverted(converted: Record<string, unknown>, settings: ChannelSettings): Record<string, unknown> {
  return hasOverride(settings) ? Object.assign(converted, settings.paramOverride) : converted;
}
