import { describe, expect, it } from 'vitest';
import { imageUrl, linkKind, linkUrl, webUrl } from './safeUrl';

/** Spellings of `javascript:` (and friends) that a browser reads as the scheme itself. */
const SCRIPT_SPELLINGS = [
  'javascript:alert(1)',
  ' JavaScript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'jav\rascript:alert(1)',
  '\u0001javascript:alert(1)',
  '\u0000javascript:alert(1)',
  '\u001fjavascript:alert(1)\u0000',
  '\t\n javascript:alert(1)',
  'JAVA\tSCRIPT:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'da\tta:text/html,<script>alert(1)</script>',
  'blob:https://example.com/3f2a',
  'file:///etc/passwd',
  'about:blank',
  'unknown-app://x',
];

describe('linkKind', () => {
  it('calls every spelling of a script or document scheme unsafe', () => {
    for (const url of SCRIPT_SPELLINGS) expect(linkKind(url), JSON.stringify(url)).toBe('unsafe');
  });
  it('calls http, https and addresses relative to the page web links', () => {
    for (const url of ['https://chat.example.com/', 'http://10.0.0.5:3000/#/?k=1', 'HTTPS://Example.com', '/local-chat/', '//cdn.example.com/x', 'chat']) {
      expect(linkKind(url), url).toBe('web');
    }
  });
  it('lets through the listed app schemes only', () => {
    expect(linkKind('ama://set-api-key?server=x&key=sk-1')).toBe('app');
    expect(linkKind('opencat://team/join?domain=x')).toBe('app');
    expect(linkKind('cherrystudio://providers/api-keys?v=1')).toBe('app');
    expect(linkKind('mailto:admin@example.com')).toBe('app');
  });
  it('calls what no browser could parse unsafe', () => {
    expect(linkKind('https://[::1')).toBe('unsafe');
  });
});

describe('webUrl, linkUrl and imageUrl', () => {
  it('pass a good address through as it is and drop the others', () => {
    expect(webUrl('https://pay.example.com/buy')).toBe('https://pay.example.com/buy');
    expect(webUrl('java\tscript:alert(1)')).toBeNull();
    expect(webUrl('ama://x')).toBeNull();
    expect(webUrl('')).toBeNull();
    expect(webUrl(undefined)).toBeNull();
    expect(linkUrl('ama://x')).toBe('ama://x');
    expect(linkUrl('\u0001javascript:alert(1)')).toBeNull();
  });
  it('take web addresses and inline images as images, and fall back for anything else', () => {
    expect(imageUrl('https://cdn.example.com/logo.png', '/logo.svg')).toBe('https://cdn.example.com/logo.png');
    expect(imageUrl('data:image/png;base64,iVBORw0KGgo=', '/logo.svg')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(imageUrl('data:text/html,<script>1</script>', '/logo.svg')).toBe('/logo.svg');
    expect(imageUrl('java\nscript:alert(1)', '/logo.svg')).toBe('/logo.svg');
    expect(imageUrl('', '/logo.svg')).toBe('/logo.svg');
  });
});
