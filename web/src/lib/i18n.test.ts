import { afterEach, describe, expect, it } from 'vitest';
import { i18n, preferredLanguage, t } from './i18n';

describe('preferredLanguage', () => {
  it('keeps the language the user picked', () => {
    expect(preferredLanguage('en', ['zh-CN'])).toBe('en');
    expect(preferredLanguage('zh', ['en-US'])).toBe('zh');
  });

  it('follows the first of Chinese or English the browser prefers', () => {
    expect(preferredLanguage(null, ['en-US', 'zh-CN'])).toBe('en');
    expect(preferredLanguage(null, ['fr-FR', 'en'])).toBe('en');
    expect(preferredLanguage(null, ['zh-TW', 'en-US'])).toBe('zh');
  });

  it('speaks Chinese unless English is preferred', () => {
    expect(preferredLanguage(null, [])).toBe('zh');
    expect(preferredLanguage(null, ['fr-FR', 'de'])).toBe('zh');
    expect(preferredLanguage('klingon', ['english'])).toBe('zh');
  });
});

describe('t', () => {
  afterEach(() => i18n.changeLanguage('zh'));

  it('shows the Chinese key itself in Chinese, with placeholders filled', () => {
    expect(t('共 {total} 条', { total: 3 })).toBe('共 3 条');
    expect(t('一段没有译文的文字')).toBe('一段没有译文的文字');
  });

  it('shows the English text in English, with placeholders filled', async () => {
    await i18n.changeLanguage('en');
    expect(t('共 {total} 条', { total: 3 })).toBe('3 in total');
    expect(t('模型价格')).toBe('Model pricing');
  });

  it('leaves literal braces alone: JSON examples and placeholders explained to the operator', async () => {
    await i18n.changeLanguage('en');
    expect(t('例如：{"vip": 0.5, "test": 1}，表示 vip 分组的倍率为 0.5，test 分组的倍率为 1')).toMatch(/^e\.g\. \{"vip": 0\.5, "test": 1\}/);
    expect(t('完整的 Base URL，支持变量 {model}')).toContain('{model}');
  });
});
