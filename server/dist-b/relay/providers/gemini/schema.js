/*
 * JSON Schema (as OpenAI tools and response_format carry it) cut down to the OpenAPI subset Gemini's Schema accepts.
 * Gemini rejects the whole request on an unknown keyword, so this keeps a whitelist rather than a list of drops.
 */
const KEEP = new Set([
    'type',
    'format',
    'title',
    'description',
    'nullable',
    'enum',
    'items',
    'properties',
    'required',
    'minItems',
    'maxItems',
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'pattern',
    'minProperties',
    'maxProperties',
    'anyOf',
    'propertyOrdering',
]);
/** String formats Gemini accepts; the others (email, uri, uuid…) are refused. */
const STRING_FORMATS = new Set(['enum', 'date-time']);
const isObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
export function cleanSchema(schema) {
    if (!isObject(schema))
        return {};
    const defs = { ...(isObject(schema.definitions) ? schema.definitions : {}), ...(isObject(schema.$defs) ? schema.$defs : {}) };
    return clean(schema, defs, new Set());
}
/** `expanding` holds the definitions being inlined on this path: a recursive schema is cut there to an object. */
function clean(input, defs, expanding) {
    let schema = input;
    if (typeof schema.$ref === 'string') {
        const name = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(schema.$ref)?.[1] ?? '';
        const target = defs[name];
        if (!isObject(target) || expanding.has(name))
            return { type: 'object' };
        const { $ref: _ref, ...rest } = schema;
        schema = { ...target, ...rest };
        expanding = new Set([...expanding, name]);
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && isObject(schema.allOf[0])) {
        const { allOf, ...rest } = schema;
        schema = { ...allOf[0], ...rest };
    }
    const out = {};
    let type = schema.type;
    if (Array.isArray(type)) {
        const types = type.filter((t) => t !== 'null');
        if (types.length < type.length)
            out.nullable = true;
        type = types[0];
    }
    if (typeof type === 'string')
        out.type = type;
    for (const [key, value] of Object.entries(schema)) {
        if (key === 'type' || !KEEP.has(key))
            continue;
        if (key === 'properties' && isObject(value)) {
            out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? clean(v, defs, expanding) : {}]));
        }
        else if (key === 'items' && isObject(value)) {
            out.items = clean(value, defs, expanding);
        }
        else if (key === 'anyOf' && Array.isArray(value)) {
            addVariants(out, value, defs, expanding);
        }
        else if (key === 'enum' && Array.isArray(value)) {
            if (value.includes(null))
                out.nullable = true;
            out.enum = value.filter((v) => v !== null).map(String);
        }
        else if (key === 'format') {
            if (out.type !== 'string' || (typeof value === 'string' && STRING_FORMATS.has(value)))
                out.format = value;
        }
        else {
            out[key] = value;
        }
    }
    if (Array.isArray(schema.oneOf) && out.anyOf === undefined)
        addVariants(out, schema.oneOf, defs, expanding);
    if (schema.const !== undefined && out.enum === undefined)
        out.enum = [String(schema.const)];
    // Gemini takes enum on strings only: an untyped enum is a string one; on numbers the constraint is dropped so the
    // arguments keep their type.
    if (Array.isArray(out.enum) && out.type === undefined)
        out.type = 'string';
    if (Array.isArray(out.enum) && out.type !== 'string')
        delete out.enum;
    if (Array.isArray(out.required)) {
        const props = isObject(out.properties) ? out.properties : {};
        out.required = out.required.filter((r) => typeof r === 'string' && r in props);
        if (out.required.length === 0)
            delete out.required;
    }
    return out;
}
/** anyOf/oneOf: a null variant becomes nullable; a single remaining variant is merged in place. */
function addVariants(out, variants, defs, expanding) {
    const kept = variants.filter((v) => isObject(v) && v.type !== 'null').map((v) => clean(v, defs, expanding));
    if (kept.length < variants.length)
        out.nullable = true;
    if (kept.length === 1)
        Object.assign(out, kept[0], out.nullable ? { nullable: true } : {});
    else if (kept.length > 1)
        out.anyOf = kept;
}
//# sourceMappingURL=schema.js.map