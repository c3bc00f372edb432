import type { Attempt, Mode, Provider, UpstreamCall, UpstreamRequest, WireCodec, WireFormat } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { jsonObject } from '../body.js';
import { channelMemo } from '../channel-memo.js';
import { openAIRequest } from './index.js';

/*
 * An upstream that speaks OpenAI's chat format with its own paths, headers or body differences: each such family
 * declares only those differences, and this builds the rest the way the OpenAI provider does.
 */

export interface CompatibleUpstream {
  name: string;
  types: readonly number[];
  /** The calls it serves. */
  modes: readonly Mode[];
  /** The URL of a call from the channel's base URL (without a trailing slash); depends on nothing but mode and model. */
  url(base: string, up: Attempt): string;
  /** Headers besides content-type and accept; default: the key as a Bearer token. */
  headers?(up: UpstreamCall): Record<string, string>;
  /** Changes the body (a fresh top-level object) before it is sent; throws a RelayError for what it cannot send. */
  rewrite?(body: Record<string, unknown>, up: UpstreamCall): void;
  /** The wire of an attempt; default: OpenAI's (the client's body passed through when it speaks OpenAI's format). */
  wire?(up: Attempt): WireFormat;
  codecs?: readonly WireCodec[];
  defaultTestModel?: string;
}

/** base + prefix + path, the prefix left out when the base URL already ends in it (…/v1, …/api/v3). */
export function versionedUrl(base: string, prefix: string, path: string): string {
  return base.endsWith(prefix) ? base + path : base + prefix + path;
}

const bearerHeaders = (up: UpstreamCall): Record<string, string> => ({ authorization: `Bearer ${up.key}` });

export function compatibleProvider(spec: CompatibleUpstream): Provider {
  const headersOf = spec.headers ?? bearerHeaders;
  const modes: ReadonlySet<Mode> = new Set(spec.modes);
  return {
    name: spec.name,
    types: spec.types,
    supports: (mode) => modes.has(mode),
    wire: spec.wire ?? (() => 'openai'),
    build(up): UpstreamRequest {
      const url = channelMemo(up.channel, `compatible-url\n${up.call.mode}\n${up.upstreamModel}`, () => spec.url(resolveBaseUrl(up.channel), up));
      if (!spec.rewrite || up.call.form) return openAIRequest(up, url, headersOf(up));
      const body = jsonObject(up);
      spec.rewrite(body, up);
      const headers: Record<string, string> = { ...headersOf(up), 'content-type': 'application/json' };
      if (up.call.stream) headers.accept = 'text/event-stream';
      return { url, method: 'POST', headers, body: JSON.stringify(body) };
    },
    codecs: spec.codecs,
    defaultTestModel: spec.defaultTestModel,
  };
}
