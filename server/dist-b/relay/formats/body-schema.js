import { Ajv } from 'ajv';
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
});
/** Compiles `schema` on first use and keeps it. */
export function bodyCheck(schema) {
    let validate = null;
    return (body) => {
        validate ??= ajv.compile(schema);
        if (validate(body))
            return null;
        return problemOf(validate.errors?.[0], body);
    };
}
function segments(pointer) {
    if (!pointer)
        return [];
    return pointer
        .slice(1)
        .split('/')
        .map((s) => {
        const name = s.replace(/~1/g, '/').replace(/~0/g, '~');
        return /^(0|[1-9]\d*)$/.test(name) ? Number(name) : name;
    });
}
function valueAt(root, path) {
    let v = root;
    for (const key of path) {
        if (v === null || typeof v !== 'object')
            return undefined;
        v = v[key];
    }
    return v;
}
function problemOf(error, body) {
    const at = segments(error?.instancePath ?? '');
    const params = (error?.params ?? {});
    switch (error?.keyword) {
        case 'required': {
            const path = [...at, String(params.missingProperty)];
            return { path, kind: 'required', expected: [], value: undefined };
        }
        case 'enum':
        case 'const': {
            const allowed = error.keyword === 'enum' ? params.allowedValues : [params.allowedValue];
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
export function jsonType(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'array';
    if (typeof value === 'number')
        return Number.isInteger(value) ? 'integer' : 'number';
    return typeof value;
}
/** A short rendering of an offending value for an error message (never a whole large value). */
export function shortValue(value) {
    const text = value === undefined ? 'undefined' : JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
/* Schema building blocks, so schemas read like the provider's reference. */
export const str = { type: 'string' };
export const num = { type: 'number' };
export const int = { type: 'integer' };
export const bool = { type: 'boolean' };
export const anyObject = { type: 'object' };
export const strList = { type: 'array', items: str };
/** A part shared by several schemas, compiled once as its own function; `id` is unique across every format. */
export function named(id, schema) {
    ajv.addSchema(schema, id);
    return { $ref: id };
}
/** An object with these typed properties (others allowed); `required` names what must be present. */
export function obj(properties, required = []) {
    return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}
export function list(items) {
    return { type: 'array', items };
}
/** The schema, or null. */
export function nullable(schema) {
    const type = schema.type;
    return { ...schema, type: [...(Array.isArray(type) ? type : [type]), 'null'] };
}
/** Any of these JSON types (no further shape). */
export function oneOfTypes(...types) {
    return { type: types };
}
/**
 * An object told apart by a tag field (`type` of a content block): the shape of each known tag is checked, an
 * unknown tag passes (providers add block types faster than gateways learn them).
 */
export function tagged(tag, base, cases, required = [tag]) {
    return {
        ...obj(base, required),
        allOf: Object.entries(cases).map(([value, then]) => ({ if: { properties: { [tag]: { const: value } }, required: [tag] }, then })),
    };
}
//# sourceMappingURL=body-schema.js.map