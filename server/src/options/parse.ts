import type { OptionKey, OptionValue } from './defaults.js';
import { OPTION_RULES, type JsonRule, type NumberRule } from './rules.js';

export type ParseResult<K extends OptionKey> = { ok: true; value: OptionValue<K> } | { ok: false; message: string };
type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Decimal notation only: Number() would also read hex (0x10), exponents (1e3), Infinity and '' (as 0). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** An integer may carry a fraction of zeros: other gateways store numbers as floats ("500000.000000"). */
const INTEGER = /^-?\d+(\.0+)?$/;

const refuse = (message: string): Parsed => ({ ok: false, message });

function parseNumber(label: string, rule: NumberRule, raw: string): Parsed {
  const text = raw.trim();
  if (text === '') return refuse(`${label}不能为空`);
  if (!DECIMAL.test(text)) return refuse(`${label}的值必须是十进制数字`);
  if (rule.type === 'integer' && !INTEGER.test(text)) return refuse(`${label}的值必须是整数`);
  const n = Number(text);
  if (n < rule.min) return refuse(`${label}不能小于 ${rule.min}`);
  // Past the maximum also catches integers JavaScript cannot hold exactly (2^53 and above round).
  if (n > rule.max) return refuse(`${label}不能大于 ${rule.max}`);
  return { ok: true, value: n === 0 ? 0 : n };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isChatEntry = (item: unknown): boolean =>
  isPlainObject(item) && Object.keys(item).length > 0 && Object.values(item).every((s) => typeof s === 'string');

function parseJson(label: string, rule: JsonRule, raw: string): Parsed {
  const bad = refuse(`${label}不是合法的 JSON 字符串`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return bad;
  }
  const { shape } = rule;
  if (shape === 'chats') return Array.isArray(value) && value.every(isChatEntry) ? { ok: true, value } : bad;
  if (!isPlainObject(value)) return bad;
  if (shape === 'texts' && !Object.values(value).every((s) => typeof s === 'string')) return bad;
  if (typeof shape === 'object') {
    for (const [name, n] of Object.entries(value)) {
      if (typeof n !== 'number' || !Number.isFinite(n)) return bad;
      if (n < shape.min) return refuse(shape.min === 0 ? `${label}中 ${name} 的值不能为负数` : `${label}中 ${name} 的值不能小于 ${shape.min}`);
      if (shape.values === 'integer' && !Number.isInteger(n)) return refuse(`${label}中 ${name} 的值必须是整数`);
      if (n > shape.max) return refuse(`${label}中 ${name} 的值不能大于 ${shape.max}`);
    }
  }
  return { ok: true, value };
}

/** Turns the stored/submitted string into the option's typed value, or says why it cannot (naming the option). */
export function parseOption<K extends OptionKey>(key: K, raw: string): ParseResult<K> {
  const rule = OPTION_RULES[key];
  const label = rule.label || key;
  let parsed: Parsed;
  switch (rule.type) {
    case 'boolean':
      parsed = raw === 'true' || raw === 'false' ? { ok: true, value: raw === 'true' } : refuse(`${label} 的值必须是 true 或 false`);
      break;
    case 'integer':
    case 'decimal':
      parsed = parseNumber(label, rule, raw);
      break;
    case 'json':
      parsed = parseJson(label, rule, raw);
      break;
    case 'text':
      parsed = !rule.choices || rule.choices.includes(raw) ? { ok: true, value: raw } : refuse(`${label} 的值必须是 ${rule.choices.join('、')} 之一`);
      break;
  }
  return parsed as ParseResult<K>;
}

/** The stored string form of a typed value. */
export function serializeOption(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
