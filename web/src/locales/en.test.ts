import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { needsTranslation, scanTexts } from './sourceTexts';

const repo = path.resolve(import.meta.dirname, '../../..');
// Besides the console's own sources, the names it shows from the shared package (roles, channel types and states).
const SHARED_NAMES = ['roles.ts', 'channel-types.ts'].map((file) => path.join(repo, 'packages/shared/src', file));
const texts = scanTexts({
  roots: [path.join(repo, 'web/src')],
  skip: [import.meta.dirname],
  files: SHARED_NAMES,
  relativeTo: repo,
});

const HAN = /[\u3400-\u9fff]/;
// Texts that stay Chinese in English on purpose: the language's own name, and the keyword the WeChat account expects.
const CHINESE_ON_PURPOSE = new Set(['简体中文', '微信扫码关注公众号，输入「验证码」获取验证码（三分钟内有效）']);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

describe('English catalogue', () => {
  it('has an entry for every Chinese text in the console sources', () => {
    const missing = [...texts.keys].filter(([key]) => needsTranslation(key) && !(key in en));
    const snippet = missing.map(([key, where]) => `  ${quote(key)}: '', // ${where}`).join('\n');
    expect(missing, `add these to web/src/locales/en.ts:\n${snippet}\n`).toEqual([]);
  });

  it('has no entry the sources no longer use', () => {
    const unused = Object.keys(en).filter((key) => !texts.keys.has(key));
    expect(unused, `remove these from web/src/locales/en.ts:\n${unused.map(quote).join('\n')}\n`).toEqual([]);
  });

  it('finds no Chinese that cannot reach t (bare JSX text, attributes of antd/HTML elements, templates)', () => {
    const report = texts.problems.map((p) => `${p.where}  ${p.why}: ${p.text}`).join('\n');
    expect(texts.problems, `route these through t('…'):\n${report}\n`).toEqual([]);
  });

  it('keeps every {placeholder} of the Chinese text', () => {
    const broken = Object.entries(en).filter(([key, text]) => placeholders(key).join() !== placeholders(text).join());
    expect(broken).toEqual([]);
  });

  it('translates every text', () => {
    const untranslated = Object.entries(en).filter(([key, text]) => !text.trim() || (HAN.test(text) && !CHINESE_ON_PURPOSE.has(key)));
    expect(untranslated).toEqual([]);
  });
});
