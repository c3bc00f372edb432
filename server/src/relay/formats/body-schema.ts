import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';

/*
 * Request bodies are checked at the edge against the shape their provider documents, so a wrong type anywhere is a
 * 400 naming the field instead of a crash deep in a conversion. The checks are JSON schemas compiled by ajv into
 * plain JavaScript, once per schema (on first use): a typical chat body costs well under a microsecond
 * (docs/decisions.md, "Request bodies at the edge"). Schemas describe types only as strictly as the providers do and
 * never forbid fields they do not name: clients send vendor extensions, and passthrough forwards the bytes as sent.
 */

/** What is wrong with a body, in neutral terms; each client format words it its own way. */
export interface FieldProblem {
  /** Where: property names and array indexes from the body's root. */
  path: ReadonlyArray<string | number>;
  /** `type`: a value of the wrong type; `required`: a missing field; `value`: a value outside the allowed set; `empty`: an empty list. */
  kind: 'type' | 'required' | 'value' | 'empty';
  /** JSON types (`string`, `array`, ...) for `type`; the allowed values for `value`. */
  expected: readonly string[];
  /** The offending value (undefined for a missing field). */
  value: unknown;
}

const ajv = new Ajv({
  allErrors: false,
  messages: false,
  allowUnionTypes: true,
  validateFormats: false,
  // Bodies are never rewritten by a check.
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
  // Shared parts (a message, a content block) are compiled once as functions of their own rather than inlined at
  // every use: inlined, Gemini's nested lists made a 400 kB function V8 would not optimise.
  inlineRefs: false,
  // The schemas are this code's own (their tests exercise each): not checked against JSON Schema's meta-schema at
  // every start, which alone compiled the meta-schema (~50 ms of the start).
  validateSchema: false,
});

/** A compiled body check: null when the body fits, else its first problem. */
export type BodyCheck = (body: unknown) => FieldProblem | null;

/** Compiles `schema` on first use and keeps it. */
export function bodyCheck(schema: SchemaObject): BodyCheck {
  let validate: ValidateFunction | null = null;
  return (body) => {
    validate ??= ajv.compile(schema);
    if (validate(body)) return null;
    return problemOf(validate.errors?.[0], body);
  };
}

function segments(pointer: string): Array<string | number> {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => {
      const name = s.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^(0|[1-9]\d*)$/.test(name) ? Number(name) : name;
    });
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

function problemOf(error: ErrorObject | undefined, body: unknown): FieldProblem {
  const at = segments(error?.instancePath ?? '');
  const params = (error?.params ?? {}) as Record<string, unknown>;
  switch (error?.keyword) {
    case 'required': {
      const path = [...at, String(params.missingProperty)];
      return { path, kind: 'required', expected: [], value: undefined };
    }
    case 'enum':
    case 'const': {
      const allowed = error.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue];
      return { path: at, kind: 'value', expected: allowed.map(String), value: valueAt(body, at) };
    }
    case 'minItems':
      return { path: at, kind: 'empty', expected: ['array'], value: valueAt(body, at) };
    case 'type':
      return { path: at, kind: 'type', expected: String(params.type).split(','), value: valueAt(body, at) };
    default: {
      // A keyword with no wording of its own (minimum, minLength...): reported as a value of the wrong kind.
      const expected = typeof error?.parentSchema?.type === 'string' ? [error.parentSchema.type] : [];
      return { path: at, kind: 'value', expected, value: valueAt(body, at) };
    }
  }
}

/** The JSON type of a value, as schemas name types (integer apart from number). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A short rendering of an offending value for an error message (never a whole large value). */
export function shortValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/* Schema building blocks, so schemas read like the provider's reference. */

export const str = { type: 'string' } as const;
export const num = { type: 'number' } as const;
export const int = { type: 'integer' } as const;
export const bool = { type: 'boolean' } as const;
export const anyObject = { type: 'object' } as const;
export const strList = { type: 'array', items: str } as const;

type Schema = SchemaObject;

/** A part shared by several schemas, compiled once as its own function; `id` is unique across every format. */
export function named(id: string, schema: Schema): Schema {
  ajv.addSchema(schema, id);
  return { $ref: id };
}

/** An object with these typed properties (others allowed); `required` names what must be present. */
export function obj(properties: Record<string, Schema>, required: string[] = []): Schema {
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

export function list(items: Schema): Schema {
  return { type: 'array', items };
}

/** The schema, or null. */
export function nullable(schema: Schema): Schema {
  const type = schema.type as string | string[];
  return { ...schema, type: [...(Array.isArray(type) ? type : [type]), 'null'] };
}

/** Any of these JSON types (no further shape). */
export function oneOfTypes(...types: string[]): Schema {
  return { type: types };
}

/**
 * An object told apart by a tag field (`type` of a content block): the shape of each known tag is checked, an
 * unknown tag passes (providers add block types faster than gateways learn them).
 */
export function tagged(tag: string, base: Record<string, Schema>, cases: Record<string, Schema>, required: string[] = [tag]): Schema {
  return {
    ...obj(base, required),
    allOf: Object.entries(cases).map(([value, then]) => ({ if: { properties: { [tag]: { const: value } }, required: [tag] }, then })),
  };
}
