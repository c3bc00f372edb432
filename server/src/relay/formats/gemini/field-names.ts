/*
 * Google's REST APIs read JSON through the proto3 mapping, which takes every field under its proto name
 * (system_instruction, generation_config, inline_data, function_call...) as well as its lowerCamelCase JSON name;
 * Google's own curl examples use the former. The converters read camelCase, so a Gemini body is brought to camelCase
 * first. Values that are free-form JSON (function arguments and results, JSON schemas given as JSON, examples,
 * labels) and the property names of a schema are data, not field names: they are kept exactly as sent.
 */

/** Fields whose value is a google.protobuf.Struct/Value or a string map: copied as is. */
const OPAQUE = new Set(['args', 'parametersJsonSchema', 'responseJsonSchema', 'example', 'default', 'partMetadata', 'labels']);

const camel = (key: string): string => (key.includes('_') ? key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key);

/** A Gemini request (generateContent, countTokens, embedContent, batchEmbedContents) with camelCase field names. */
export function camelCaseFields<T>(body: T): T {
  return walk(body, '') as T;
}

function walk(value: unknown, field: string): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, field));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const name = camel(key);
    if (OPAQUE.has(name) || (name === 'response' && field === 'functionResponse')) out[name] = v;
    else if (name === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) out[name] = schemaMap(v as Record<string, unknown>);
    else out[name] = walk(v, name);
  }
  return out;
}

/** Schema.properties: the keys are the caller's property names. */
function schemaMap(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) out[name] = walk(schema, 'schema');
  return out;
}
