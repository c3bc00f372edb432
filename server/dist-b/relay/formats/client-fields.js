import { RelayError } from '../errors.js';
export const to = (...canonical) => ({ canonical });
const refuse = (message) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');
const present = (v) => v !== undefined && v !== null;
function checkOne(rule, value, name, format) {
    if (!rule)
        throw refuse(`转换 ${format} 请求时不支持字段 ${name}`);
    if ('kind' in rule && rule.kind === 'refused' && !rule.allows?.(value))
        throw refuse(`转换 ${format} 请求时不支持字段 ${name}：${rule.when}`);
}
/** Refuses (400) a top-level field, or a field of a nested object the table lists by dot, that cannot be converted. */
export function checkClientFields(body, fields, format) {
    for (const key in body) {
        const value = body[key];
        if (!present(value))
            continue;
        checkOne(fields[key], value, key, format);
        if (value && typeof value === 'object' && !Array.isArray(value) && `${key}.*` in fields) {
            for (const sub in value) {
                const v = value[sub];
                if (present(v))
                    checkOne(fields[`${key}.${sub}`], v, `${key}.${sub}`, format);
            }
        }
    }
}
//# sourceMappingURL=client-fields.js.map