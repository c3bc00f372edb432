import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBus } from '../cache/bus.js';
import { migrateToLatest } from '../db/migrate.js';
import { OPTION_DEFAULTS, Options, type OptionKey } from '../options/index.js';
import { OPTION_RULES, SAFE_MAX, type NumberRule } from '../options/rules.js';
import { saveOptionRow } from '../store/options.js';
import { testDatabases } from '../test/databases.js';
import { DEFAULT_ADDRESS_LIMITS, startTestApp, type Session, type TestApp } from '../test/app.js';

/*
 * Every numeric option through PUT /api/option/ and through a start that finds it stored: hex, exponents, values
 * past 2^53, negatives, fractions where a whole number is due and empty values are refused, naming the option in
 * Chinese; a stored one gives way to the default with a warning. Per-address limits are at their defaults; each
 * option is set from an address of its own.
 */


const NUMERIC = (Object.keys(OPTION_RULES) as OptionKey[])
  .map((key) => [key, OPTION_RULES[key]] as const)
  .filter((entry): entry is readonly [OptionKey, NumberRule] => entry[1].type === 'integer' || entry[1].type === 'decimal');

/** Bad values and the refusal each gets, for an option with this rule. */
function badValues(key: OptionKey, rule: NumberRule): Array<[string, string]> {
  const label = rule.label || key;
  const cases: Array<[string, string]> = [
    ['0x10', `${label}的值必须是十进制数字`],
    ['1e3', `${label}的值必须是十进制数字`],
    ['Infinity', `${label}的值必须是十进制数字`],
    [' ', `${label}不能为空`],
    ['', `${label}不能为空`],
    ['99999999999999999999', `${label}不能大于 ${rule.max}`],
    ['9007199254740993', `${label}不能大于 ${rule.max}`],
    ['-1', `${label}不能小于 ${rule.min}`],
    [String(rule.max + (rule.type === 'integer' ? 1 : 0.5)), `${label}不能大于 ${rule.max}`],
  ];
  if (rule.type === 'integer') cases.push(['1.5', `${label}的值必须是整数`], [`${rule.min}.01`, `${label}的值必须是整数`]);
  return cases;
}

it('gives every numeric option a range inside the numbers JavaScript holds exactly', () => {
  expect(NUMERIC.length).toBeGreaterThan(20);
  for (const [key, rule] of NUMERIC) {
    expect(rule.min, key).toBeGreaterThanOrEqual(0);
    expect(rule.max, key).toBeLessThanOrEqual(SAFE_MAX);
    expect(OPTION_DEFAULTS[key], key).toBeGreaterThanOrEqual(rule.min);
    expect(OPTION_DEFAULTS[key], key).toBeLessThanOrEqual(rule.max);
    if (rule.type === 'integer') expect(Number.isInteger(OPTION_DEFAULTS[key]), key).toBe(true);
  }
});

describe.each(testDatabases())('numeric options on $name', (database) => {
  let t: TestApp;
  let root: Session;
  beforeAll(async () => {
    t = await startTestApp(database, DEFAULT_ADDRESS_LIMITS);
    root = await t.root();
  });
  afterAll(() => t.close());

  let address = 0;
  const put = async (ip: string, key: string, value: string | number) =>
    (await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key, value }, headers: { 'x-forwarded-for': ip } })).json() as {
      success: boolean;
      message: string;
    };

  it('refuses hex, exponents, values past 2^53, negatives, fractions where whole numbers are due and empty values', async () => {
    for (const [key, rule] of NUMERIC) {
      const ip = `192.0.2.${++address}`;
      const before = t.app.ctx.options.raw(key);
      for (const [value, message] of badValues(key, rule)) {
        expect(await put(ip, key, value), `${key}=${JSON.stringify(value)}`).toEqual({ success: false, message });
      }
      expect(t.app.ctx.options.raw(key), key).toBe(before);
      // The ends of the range are accepted; whole numbers may carry a fraction of zeros (as other gateways store them).
      expect((await put(ip, key, String(rule.max))).success, `${key}=max`).toBe(true);
      expect((await put(ip, key, `${rule.min}.000`)).success, `${key}=min`).toBe(true);
      expect(t.app.ctx.options.get(key), key).toBe(rule.min);
      expect((await put(ip, key, before)).success, key).toBe(true);
    }
  });

  it('never hands a new user a quota JavaScript cannot count: 99999999999999999999 is refused, even as a JSON number', async () => {
    const ip = '192.0.2.200';
    expect(await put(ip, 'QuotaForNewUser', '99999999999999999999')).toEqual({ success: false, message: `新用户初始额度不能大于 ${SAFE_MAX}` });
    // The JSON body's number, as a client serialising 1e20 sends it.
    const asJsonNumber = await t.call(root, {
      method: 'PUT',
      url: '/api/option/',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      payload: '{"key":"QuotaForNewUser","value":99999999999999999999}',
    });
    expect(asJsonNumber.json().success).toBe(false);
    expect(await put(ip, 'QuotaForNewUser', '0x10')).toEqual({ success: false, message: '新用户初始额度的值必须是十进制数字' });
    expect((await put(ip, 'QuotaForNewUser', 23)).success).toBe(true);
    const newcomer = await t.user('bigquota');
    expect((await t.call(newcomer, { method: 'GET', url: '/api/user/self' })).json().data.quota).toBe(23);
    expect((await put(ip, 'QuotaForNewUser', '0')).success).toBe(true);
  });

  it('keeps the values of ratio and price maps finite, at least 0, and whole where they count tokens', async () => {
    const ip = '192.0.2.201';
    expect(await put(ip, 'ModelRatio', '{"gpt-4o": 1e400}')).toEqual({ success: false, message: '模型倍率不是合法的 JSON 字符串' });
    expect(await put(ip, 'GroupRatio', '{"vip": 1e20}')).toEqual({ success: false, message: `分组倍率中 vip 的值不能大于 ${SAFE_MAX}` });
    expect(await put(ip, 'claude.default_max_tokens', '{"default": 0.5}')).toEqual({ success: false, message: 'Claude 默认最大输出中 default 的值不能小于 1' });
    expect(await put(ip, 'claude.default_max_tokens', '{"default": 1024.5}')).toEqual({ success: false, message: 'Claude 默认最大输出中 default 的值必须是整数' });
    expect((await put(ip, 'claude.default_max_tokens', '{"default": 4096}')).success).toBe(true);
    expect(t.app.ctx.options.get('claude.default_max_tokens')).toEqual({ default: 4096 });
  });
});

describe.each(testDatabases())('numeric options stored before on $name', (database) => {
  let db: Awaited<ReturnType<typeof database.open>>;
  beforeAll(async () => {
    db = await database.open();
    await migrateToLatest(db.db);
  });
  afterAll(() => db.drop());

  it('fall back to the default with a warning naming the option when out of type or range', async () => {
    const bad = ['0x10', '1e3', '99999999999999999999', '-1', '', '1.5'];
    const stored = new Map<OptionKey, string>();
    NUMERIC.forEach(([key, rule], i) => {
      // A fraction is fine for decimals; take the next bad value for them.
      let value = bad[i % bad.length];
      if (value === '1.5' && rule.type === 'decimal') value = '-1';
      stored.set(key, value);
    });
    for (const [key, value] of stored) await saveOptionRow(db.db.kysely, key, value);
    const warnings: string[] = [];
    const options = new Options(db.db.kysely, new LocalBus(), (m) => warnings.push(m));
    await options.load();
    for (const [key] of stored) {
      expect(options.get(key), key).toBe(OPTION_DEFAULTS[key]);
      expect(warnings.some((w) => w.startsWith(`option ${key} has an unusable stored value (`)), key).toBe(true);
    }
    expect(warnings).toHaveLength(stored.size);
  });
});
