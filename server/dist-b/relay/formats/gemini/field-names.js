/*
 * Google's REST APIs read JSON through the proto3 mapping, which takes every field under its proto name
 * (system_instruction, generation_config, inline_data, function_call...) as well as its lowerCamelCase JSON name;
 * Google's own curl examples use the former. The converters read camelCase, so a Gemini body is brought to camelCase
 * first. Values that are free-form JSON (function arguments and results, JSON schemas given as JSON, examples,
 * labels) and the property names of a schema are data, not field names: they are kept exactly as sent.
 */
/** Fields whose value is a google.protobuf.Struct/Value or a string map: copied as is. */
const OPAQUE = new Set(['args', 'parametersJsonSchema', 'responseJsonSchema', 'example', 'default', 'partMetadata', 'labels']);
const camel = (key) => (key.includes('_') ? key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()) : key);
/**
 * A Gemini request (generateContent, countTokens, embedContent, batchEmbedContents) with camelCase field names. Parts
 * already in camelCase are returned as they are (no copy), so the usual SDK body costs a walk and no allocation.
 */
export function camelCaseFields(body) {
    return walk(body, '');
}
function walk(value, field) {
    if (!value || typeof value !== 'object')
        return value;
    if (Array.isArray(value)) {
        let out = null;
        for (let i = 0; i < value.length; i++) {
            const v = walk(value[i], field);
            if (v !== value[i])
                (out ??= value.slice())[i] = v;
        }
        return out ?? value;
    }
    const obj = value;
    let out = null;
    for (const key in obj) {
        const v = obj[key];
        const name = camel(key);
        let converted;
        if (OPAQUE.has(name) || (name === 'response' && field === 'functionResponse'))
            converted = v;
        else if (name === 'properties' && v && typeof v === 'object' && !Array.isArray(v))
            converted = schemaMap(v);
        else
            converted = walk(v, name);
        if (out === null && (name !== key || converted !== v))
            out = copyUntil(obj, key);
        if (out !== null)
            out[name] = converted;
    }
    return out ?? obj;
}
/** The keys of `obj` before `stop`, as they are (they needed no change). */
function copyUntil(obj, stop) {
    const out = {};
    for (const key in obj) {
        if (key === stop)
            break;
        out[key] = obj[key];
    }
    return out;
}
/** Schema.properties: the keys are the caller's property names. */
function schemaMap(properties) {
    let out = null;
    for (const name in properties) {
        const schema = properties[name];
        const converted = walk(schema, 'schema');
        if (out === null && converted !== schema)
            out = copyUntil(properties, name);
        if (out !== null)
            out[name] = converted;
    }
    return out ?? properties;
}
//# sourceMappingURL=field-names.js.map