import { createHash } from 'node:crypto';

/*
 * The Content-Security-Policy of the console's pages (docs/security.md, "The console's pages"). What the console
 * loads decides each directive: its own built scripts, plus the one inline script of index.html (by hash); Ant
 * Design's CSS-in-JS, which writes <style> tags and style attributes; images from addresses the administrator sets
 * (logo, QR code, task results); chat apps and operator pages in frames; calls to its own origin only.
 */

/** Third-party pieces the administrator can switch on; each adds the origin its script comes from. */
export interface PolicyFeatures {
  turnstile: boolean;
  telegram: boolean;
}

/** The CSP source for each inline <script> (one without src) of a page, so the built index.html runs unchanged. */
export function inlineScriptSources(html: string): string[] {
  const sources: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1])) continue;
    sources.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return sources;
}

export function consolePolicy(inlineScripts: string[], features: PolicyFeatures): string {
  const scripts = ["'self'", ...inlineScripts];
  if (features.turnstile) scripts.push('https://challenges.cloudflare.com');
  // Telegram's widget compiles its data-onauth callback with eval(): it cannot run without 'unsafe-eval'.
  if (features.telegram) scripts.push('https://telegram.org', "'unsafe-eval'");
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // Chat apps (any web address the administrator lists), home and about pages, Turnstile's and Telegram's frames.
    "frame-src 'self' https: http:",
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // No form-action: the top-up form posts to the payment gateway, which redirects on to the payer's bank or wallet,
    // and browsers check form-action on every hop of that chain.
  ].join('; ');
}

/** The answer to a refused page (a 429): text and inline style only. */
export const STATIC_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'";
