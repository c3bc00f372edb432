import { RelayError } from '../errors.js';
import type { FieldRule } from '../providers/field-policy.js';

/*
 * What a client format's converter does with each field of its request on the way to the canonical shape: the
 * canonical fields it becomes (whose fate on each target is then the target wire's rule), or a rule of its own when
 * it has no canonical equivalent. Nested fields are named with a dot (generationConfig.topK) and checked one level
 * down; entries for array items (contents[].parts[].executableCode) are enforced by the converter and listed here
 * for the field table. A field the table does not name is refused.
 */

export type ClientField = { canonical: readonly string[] } | FieldRule;

export type ClientFields = Readonly<Record<string, ClientField>>;

export const to = (...canonical: string[]): ClientField => ({ canonical });

const refuse = (message: string) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');

const present = (v: unknown) => v !== undefined && v !== null;

function checkOne(rule: ClientField | undefined, value: unknown, name: string, format: string): void {
  if (!rule) throw refuse(`转换 ${format} 请求时不支持字段 ${name}`);
  if ('kind' in rule && rule.kind === 'refused' && !rule.allows?.(value)) throw refuse(`转换 ${format} 请求时不支持字段 ${name}：${rule.when}`);
}

const isIgnored = (rule: ClientField | undefined) => !!rule && 'kind' in rule && rule.kind === 'ignored';

/**
 * Refuses (400) a top-level field, or a field of a nested object the table lists by dot, that cannot be converted.
 * Returns the fields it leaves out as hints (ignored in the table), by name, for the answer to name.
 */
export function checkClientFields(body: Record<string, unknown>, fields: ClientFields, format: string): string[] {
  const dropped: string[] = [];
  for (const key in body) {
    const value = body[key];
    if (!present(value)) continue;
    checkOne(fields[key], value, key, format);
    if (isIgnored(fields[key])) dropped.push(key);
    if (value && typeof value === 'object' && !Array.isArray(value) && `${key}.*` in fields) {
      for (const sub in value as Record<string, unknown>) {
        const v = (value as Record<string, unknown>)[sub];
        if (!present(v)) continue;
        const name = `${key}.${sub}`;
        checkOne(fields[name], v, name, format);
        if (isIgnored(fields[name])) dropped.push(name);
      }
    }
  }
  return dropped;
}

const inverses = new WeakMap<ClientFields, Map<string, string>>();

/** The client's name for a canonical field (text.verbosity for verbosity from a Responses client); else the same name. */
export function clientFieldOf(fields: ClientFields, canonical: string): string {
  let inverse = inverses.get(fields);
  if (!inverse) {
    inverse = new Map();
    for (const [name, rule] of Object.entries(fields)) {
      if (!('canonical' in rule)) continue;
      for (const c of rule.canonical) if (!inverse.has(c)) inverse.set(c, name);
    }
    inverses.set(fields, inverse);
  }
  return inverse.get(canonical) ?? canonical;
}
