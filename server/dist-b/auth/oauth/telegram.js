import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../../lib/errors.js';
/*
 * Telegram's login widget hands the browser the account's fields plus `hash`: HMAC-SHA256 of the data-check-string
 * (every field but hash, as key=value, sorted, joined by newlines) keyed by SHA-256 of the bot token. `lang` is the
 * console's own addition (spec §7), never part of what Telegram signs. A payload is good for a day.
 */
export const TELEGRAM_MAX_AGE_SECONDS = 24 * 3600;
/** Clocks disagree a little; more than this ahead is a payload from the future. */
const CLOCK_SKEW_SECONDS = 60;
const UNSIGNED_FIELDS = new Set(['hash', 'lang']);
const MAX_FIELDS = 16;
const MAX_VALUE_LENGTH = 1024;
/** The data-check-string of the signed fields. */
export function telegramCheckString(fields) {
    return Object.keys(fields)
        .filter((k) => !UNSIGNED_FIELDS.has(k))
        .sort()
        .map((k) => `${k}=${fields[k]}`)
        .join('\n');
}
/** The hash Telegram gives these fields for this bot (also what the tests sign with). */
export function telegramHash(fields, botToken) {
    const key = createHash('sha256').update(botToken).digest();
    return createHmac('sha256', key).update(telegramCheckString(fields)).digest('hex');
}
/** The query as flat text fields; a repeated or oversized field, or too many of them, is not a widget payload. */
function fieldsOf(query) {
    if (query === null || typeof query !== 'object')
        throw fail('无效的参数：id');
    const entries = Object.entries(query);
    if (entries.length > MAX_FIELDS)
        throw fail('无效的参数：字段过多');
    const fields = {};
    for (const [key, value] of entries) {
        if (!/^[a-z_]{1,32}$/.test(key) || typeof value !== 'string' || value.length > MAX_VALUE_LENGTH)
            throw fail(`无效的参数：${key.slice(0, 32)}`);
        fields[key] = value;
    }
    return fields;
}
/**
 * The Telegram account of a widget payload, once its hash is right (compared in constant time) and it is fresh.
 * `now` in unix seconds.
 */
export function verifyTelegramLogin(query, botToken, now) {
    const fields = fieldsOf(query);
    for (const name of ['id', 'auth_date', 'hash']) {
        if (!fields[name])
            throw fail(`无效的参数：${name}`);
    }
    if (!/^\d{1,20}$/.test(fields.id))
        throw fail('无效的参数：id');
    if (!/^\d{1,12}$/.test(fields.auth_date))
        throw fail('无效的参数：auth_date');
    if (!/^[0-9a-f]{64}$/i.test(fields.hash))
        throw fail('无效的参数：hash');
    const expected = Buffer.from(telegramHash(fields, botToken), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(fields.hash.toLowerCase(), 'hex')))
        throw fail('无效的请求');
    const authDate = Number(fields.auth_date);
    if (authDate > now + CLOCK_SKEW_SECONDS)
        throw fail('Telegram 登录信息的时间无效，请重新登录');
    if (now - authDate > TELEGRAM_MAX_AGE_SECONDS)
        throw fail('Telegram 登录信息已过期，请重新登录');
    return { id: fields.id, username: fields.username ?? '', firstName: fields.first_name ?? '' };
}
//# sourceMappingURL=telegram.js.map