import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TELEGRAM_MAX_AGE_SECONDS, telegramCheckString, telegramHash, verifyTelegramLogin } from './telegram.js';

const BOT_TOKEN = '123456:test-bot-token';
const NOW = 1_800_000_000;

function signed(fields: Record<string, string>, token = BOT_TOKEN): Record<string, string> {
  return { ...fields, hash: telegramHash(fields, token) };
}

describe('Telegram login widget payloads', () => {
  const widget = { id: '4242', first_name: 'Tele', last_name: 'Gram', username: 'telegram_user', photo_url: 'https://t.me/i/userpic/1.jpg', auth_date: String(NOW - 60) };

  it('signs as Telegram documents: HMAC-SHA256 of the sorted key=value lines, keyed by SHA-256 of the bot token', () => {
    const lines = 'auth_date=1799999940\nfirst_name=Tele\nid=4242\nlast_name=Gram\nphoto_url=https://t.me/i/userpic/1.jpg\nusername=telegram_user';
    expect(telegramCheckString({ ...widget, hash: 'x', lang: 'zh-CN' })).toBe(lines);
    const key = createHash('sha256').update(BOT_TOKEN).digest();
    expect(telegramHash(widget, BOT_TOKEN)).toBe(createHmac('sha256', key).update(lines).digest('hex'));
  });

  it('accepts a fresh, correctly signed payload (the console may add lang, which Telegram does not sign)', () => {
    expect(verifyTelegramLogin({ ...signed(widget), lang: 'zh-CN' }, BOT_TOKEN, NOW)).toEqual({ id: '4242', username: 'telegram_user', firstName: 'Tele' });
    const upper = signed(widget);
    expect(verifyTelegramLogin({ ...upper, hash: upper.hash.toUpperCase() }, BOT_TOKEN, NOW).id).toBe('4242');
    expect(verifyTelegramLogin(signed({ id: '7', auth_date: String(NOW) }), BOT_TOKEN, NOW).id).toBe('7');
  });

  it('refuses a payload changed after signing, signed for another bot, or with a field added', () => {
    const good = signed(widget);
    const cases = [
      { ...good, id: '4243' },
      { ...good, username: 'someone_else' },
      signed(widget, '654321:another-bot'),
      { ...good, extra: 'x' },
      { ...good, hash: '0'.repeat(64) },
    ];
    for (const payload of cases) expect(() => verifyTelegramLogin(payload, BOT_TOKEN, NOW)).toThrow('无效的请求');
  });

  it('refuses payloads older than a day or from the future', () => {
    const old = signed({ ...widget, auth_date: String(NOW - TELEGRAM_MAX_AGE_SECONDS - 1) });
    expect(() => verifyTelegramLogin(old, BOT_TOKEN, NOW)).toThrow('Telegram 登录信息已过期，请重新登录');
    expect(verifyTelegramLogin(signed({ ...widget, auth_date: String(NOW - TELEGRAM_MAX_AGE_SECONDS) }), BOT_TOKEN, NOW).id).toBe('4242');
    const future = signed({ ...widget, auth_date: String(NOW + 3600) });
    expect(() => verifyTelegramLogin(future, BOT_TOKEN, NOW)).toThrow('Telegram 登录信息的时间无效，请重新登录');
  });

  it('refuses malformed or missing fields before looking at the hash', () => {
    const good = signed(widget);
    const cases: Array<[unknown, string]> = [
      [{}, '无效的参数：id'],
      [{ ...good, id: undefined }, '无效的参数：id'],
      [{ ...good, id: '12a' }, '无效的参数：id'],
      [{ ...good, id: ['1', '2'] }, '无效的参数：id'],
      [{ ...good, auth_date: 'yesterday' }, '无效的参数：auth_date'],
      [{ ...good, hash: 'abc' }, '无效的参数：hash'],
      [{ ...good, first_name: 'x'.repeat(2000) }, '无效的参数：first_name'],
      [{ ...good, 'Bad-Key': '1' }, '无效的参数：Bad-Key'],
      [Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${'x'.repeat(i)}`, '1'])), '无效的参数：字段过多'],
      [null, '无效的参数：id'],
    ];
    for (const [payload, message] of cases) {
      const clean = payload && typeof payload === 'object' ? Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined)) : payload;
      expect(() => verifyTelegramLogin(clean, BOT_TOKEN, NOW), message).toThrow(message);
    }
  });
});
