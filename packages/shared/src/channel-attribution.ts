/*
 * OpenRouter ranks the apps that call it by two request headers: HTTP-Referer (the app's address) and X-Title (its
 * name). A channel may set its own in its `setting` JSON; a blank one falls back to the system's ServerAddress and
 * SystemName. Header values are printable ASCII here: anything else would be refused by the HTTP client, failing
 * every call of the channel.
 */

/** The keys of the channel's `setting` JSON that hold them. */
export const ATTRIBUTION_SETTING = { referer: 'http_referer', title: 'x_title' } as const;

export const MAX_ATTRIBUTION_LENGTH = 200;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A name OpenRouter can be sent as X-Title (blank is not one). */
export function isAttributionTitle(text: string): boolean {
  const value = text.trim();
  return value !== '' && value.length <= MAX_ATTRIBUTION_LENGTH && PRINTABLE_ASCII.test(value);
}

/** http(s), a host name or an IP literal, an optional port, then any visible ASCII (written as URLs are sent). */
const HTTP_ADDRESS = /^https?:\/\/(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:[/?#][\x21-\x7e]*)?$/i;

/** An http(s) address OpenRouter can be sent as HTTP-Referer (blank is not one). */
export function isAttributionReferer(text: string): boolean {
  const value = text.trim();
  return value.length <= MAX_ATTRIBUTION_LENGTH && HTTP_ADDRESS.test(value);
}
