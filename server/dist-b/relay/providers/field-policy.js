import { RelayError } from '../errors.js';
export const mapped = (to) => ({ kind: 'mapped', to });
export const ignored = (why) => ({ kind: 'ignored', why });
export const refused = (when, allows) => ({ kind: 'refused', when, allows });
/** Values that ask for nothing beyond the default. */
export const only = (...values) => (v) => values.some((d) => JSON.stringify(d) === JSON.stringify(v));
export const emptyObject = (v) => !!v && typeof v === 'object' && Object.keys(v).length === 0;
/** Fields of OpenAI's chat request that only concern OpenAI's own service and never change an answer. */
export const OPENAI_SERVICE_FIELDS = {
    store: ignored('OpenAI 侧的存储开关'),
    metadata: ignored('OpenAI 侧存储的标签'),
    service_tier: ignored('OpenAI 的服务档位'),
    prompt_cache_key: ignored('OpenAI 的缓存提示'),
    prompt_cache_retention: ignored('OpenAI 的缓存提示'),
    safety_identifier: ignored('OpenAI 的滥用监测标识'),
    prediction: ignored('预测输出只影响速度，不影响答案'),
    stream_options: ignored('流式用量总会向上游索取并报告'),
};
const refuse = (message) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');
const present = (v) => v !== undefined && v !== null;
function check(rule, value, name, target) {
    if (!rule)
        throw refuse(`${target} 渠道不支持参数 ${name}`);
    if (rule.kind === 'refused' && !rule.allows?.(value))
        throw refuse(`${target} 渠道不支持参数 ${name}：${rule.when}`);
}
/** Refuses (400) the first field, content part or tool of a canonical request the wire cannot honour. */
export function checkCanonical(req, policy) {
    for (const key in req) {
        const value = req[key];
        if (present(value))
            check(policy.fields[key], value, key, policy.target);
    }
    for (const m of req.messages ?? []) {
        if (!Array.isArray(m?.content))
            continue;
        for (const part of m.content)
            check(policy.parts[String(part?.type)], part, `messages[].content[].type=${String(part?.type)}`, policy.target);
    }
    for (const t of req.tools ?? [])
        check(policy.tools[String(t?.type)], t, `tools[].type=${String(t?.type)}`, policy.target);
}
//# sourceMappingURL=field-policy.js.map