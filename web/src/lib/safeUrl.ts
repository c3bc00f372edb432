/**
 * Addresses the administrator sets (chat links, top-up link, logo, home and about pages, links in notices) become
 * links, frames and navigations in the console's origin, where a `javascript:` address runs as the signed-in user.
 * They are read here with the browser's own parser, which drops tabs and newlines anywhere and control characters
 * and spaces at the ends (`java\tscript:` is `javascript:` to a browser), and only these schemes are let through.
 */

/** Desktop and mobile apps a link can hand a key or an address to, and mail and phone links. */
const APP_SCHEMES = new Set(['ama:', 'opencat:', 'cherrystudio:', 'mailto:', 'tel:']);

export type LinkKind = 'web' | 'app' | 'unsafe';

/** A relative address resolves against the page, as a link or a navigation from it would. */
function pageBase(): string {
  return globalThis.location?.href ?? 'http://localhost/';
}

function parse(url: string): URL | null {
  try {
    return new URL(url, pageBase());
  } catch {
    return null;
  }
}

/** Web pages (http, https, relative), app links, or anything else, which is never opened. */
export function linkKind(url: string): LinkKind {
  const parsed = parse(url);
  if (!parsed) return 'unsafe';
  if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return 'web';
  return APP_SCHEMES.has(parsed.protocol) ? 'app' : 'unsafe';
}

/** The address when it is a web page, else null. */
export function webUrl(url: string | null | undefined): string | null {
  return url && linkKind(url) === 'web' ? url : null;
}

/** The address when it may be opened by a link (a web page or an app), else null. */
export function linkUrl(url: string | null | undefined): string | null {
  return url && linkKind(url) !== 'unsafe' ? url : null;
}

/** An image address: a web address or an inline `data:image/...`, else the fallback. */
export function imageUrl(url: string | null | undefined, fallback: string): string {
  if (!url) return fallback;
  if (webUrl(url)) return url;
  const parsed = parse(url);
  return parsed?.protocol === 'data:' && parsed.pathname.toLowerCase().startsWith('image/') ? url : fallback;
}
