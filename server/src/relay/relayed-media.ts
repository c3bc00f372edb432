/*
 * Headers of an upstream's file (a drawing, synthesised speech, a transcript) served from the gateway's own origin.
 * The upstream's Content-Type is kept only when it is of the kind the route serves: an HTML page answered in an
 * image's place would otherwise run in the gateway's origin, next to the console's session. The browser is told not
 * to guess another type, and to open whatever it is in a sandbox without script: that is what keeps an SVG (an image
 * that can hold script) harmless when it is opened as a page; inside an <img> its script never runs anyway.
 */

export type MediaKind = 'image' | 'audio';

const SAFE_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' } as const;

const FALLBACK_TYPE = 'application/octet-stream';

/** The media type (without parameters, lower case) when it is of `kind`, else application/octet-stream. */
export function mediaTypeOf(upstreamType: unknown, kind: MediaKind): string {
  if (typeof upstreamType !== 'string') return FALLBACK_TYPE;
  const type = upstreamType.split(';')[0].trim().toLowerCase();
  const [family, subtype] = type.split('/');
  if (family !== kind || !subtype || !/^[a-z0-9][a-z0-9.+-]*$/.test(subtype)) return FALLBACK_TYPE;
  return type;
}

/** Content-Type, nosniff and a sandboxing CSP for an upstream's file of `kind`. */
export function relayedMediaHeaders(upstreamType: unknown, kind: MediaKind): Record<string, string> {
  return { 'content-type': mediaTypeOf(upstreamType, kind), ...SAFE_HEADERS };
}

/** nosniff and the sandboxing CSP alone, for an upstream's text answer whose type is passed on as it came. */
export function sandboxedAnswerHeaders(): Record<string, string> {
  return { ...SAFE_HEADERS };
}
