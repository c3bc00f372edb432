import { describe, expect, it } from 'vitest';
import { isAttributionReferer, isAttributionTitle, MAX_ATTRIBUTION_LENGTH } from './channel-attribution.js';

describe('OpenRouter attribution values', () => {
  it('takes printable ASCII names and http(s) addresses that can be header values', () => {
    expect(isAttributionTitle(' Night Owl Chat ')).toBe(true);
    expect(isAttributionReferer('https://chat.example.org/app?x=1')).toBe(true);
    expect(isAttributionReferer('http://localhost:3000')).toBe(true);
  });

  it('refuses blank, too long, non-ASCII or multi-line values, and addresses of other schemes', () => {
    for (const title of ['', '  ', '夜猫子', 'café', 'a\r\nb', 'tab\tname', 'x'.repeat(MAX_ATTRIBUTION_LENGTH + 1)]) {
      expect(isAttributionTitle(title), JSON.stringify(title)).toBe(false);
    }
    for (const referer of ['', 'chat.example.org', 'ftp://x.example', 'javascript:alert(1)', 'https://例子.example', 'https://a.example/\r\nx', `https://a.example/${'x'.repeat(MAX_ATTRIBUTION_LENGTH)}`]) {
      expect(isAttributionReferer(referer), JSON.stringify(referer)).toBe(false);
    }
  });
});
