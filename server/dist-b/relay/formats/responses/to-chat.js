import { RelayError } from '../../errors.js';
import { isMintedId } from './ids.js';
const invalid = (message, code = 'invalid_request_error') => new RelayError(400, message, code, 'invalid_request_error');
const unsupported = (message) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');
const isObj = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
const present = (v) => v !== undefined && v !== null;
/** A reference the gateway could not resolve: one it made that is gone, or one another service (OpenAI) keeps. */
function unknownReference(field, id) {
    const what = field === 'previous_response_id' ? '响应' : '条目';
    const named = `${field} 指向的${what} '${String(id)}'`;
    if (isMintedId(id)) {
        const message = `${named} 不存在：可能已过期、已被删除，或创建时 store 为 false`;
        return field === 'previous_response_id'
            ? new RelayError(400, message, 'previous_response_not_found', 'invalid_request_error')
            : new RelayError(404, message, 'item_not_found', 'invalid_request_error');
    }
    const message = `${named} 不在本网关保存：由 OpenAI 渠道保存的${what}只能在 OpenAI 渠道上使用，请在 input 中携带完整对话`;
    return field === 'previous_response_id'
        ? new RelayError(400, message, 'previous_response_not_found', 'invalid_request_error')
        : new RelayError(404, message, 'item_not_found', 'invalid_request_error');
}
/** Fields that need state this gateway does not keep. */
const STATEFUL = [
    ['conversation', '本渠道不保存对话，不支持 conversation 参数，请在 input 中携带完整对话'],
    ['prompt', '本渠道不支持 prompt 模板参数，请直接在 input 中给出内容'],
];
export function responsesToChat(req) {
    if (typeof req.model !== 'string' || !req.model)
        throw invalid('缺少必填字段 model', 'missing_required_parameter');
    if (present(req.previous_response_id))
        throw unknownReference('previous_response_id', req.previous_response_id);
    for (const [field, message] of STATEFUL)
        if (present(req[field]))
            throw unsupported(message);
    if (req.background === true)
        throw unsupported('本渠道不支持 background 后台模式');
    if (typeof req.top_logprobs === 'number' && req.top_logprobs > 0)
        throw unsupported('本渠道转换后的回答不带 logprobs，不支持 top_logprobs');
    const messages = [];
    if (present(req.instructions)) {
        if (typeof req.instructions !== 'string')
            throw invalid('instructions 必须是字符串', 'invalid_type');
        if (req.instructions)
            messages.push({ role: 'system', content: req.instructions });
    }
    if (!present(req.input))
        throw invalid('缺少必填字段 input', 'missing_required_parameter');
    if (typeof req.input === 'string')
        messages.push({ role: 'user', content: req.input });
    else if (Array.isArray(req.input))
        messages.push(...inputMessages(req.input));
    else
        throw invalid('input 必须是字符串或数组', 'invalid_type');
    const out = { model: req.model, messages };
    if (present(req.max_output_tokens)) {
        if (!Number.isInteger(req.max_output_tokens) || req.max_output_tokens <= 0) {
            throw invalid('max_output_tokens 必须是正整数', 'invalid_type');
        }
        out.max_tokens = req.max_output_tokens;
    }
    const temperature = optionalNumber(req, 'temperature');
    if (temperature !== undefined)
        out.temperature = temperature;
    const topP = optionalNumber(req, 'top_p');
    if (topP !== undefined)
        out.top_p = topP;
    if (present(req.stream)) {
        if (typeof req.stream !== 'boolean')
            throw invalid('stream 必须是布尔值', 'invalid_type');
        if (req.stream) {
            out.stream = true;
            // response.completed carries usage, so the upstream must be asked for it.
            out.stream_options = { include_usage: true };
        }
    }
    applyTools(out, req.tools, req.tool_choice);
    if (typeof req.parallel_tool_calls === 'boolean')
        out.parallel_tool_calls = req.parallel_tool_calls;
    const effort = reasoningEffort(req.reasoning);
    if (effort)
        out.reasoning_effort = effort;
    applyText(out, req.text);
    if (typeof req.user === 'string' && req.user)
        out.user = req.user;
    if (typeof req.prompt_cache_key === 'string' && req.prompt_cache_key)
        out.prompt_cache_key = req.prompt_cache_key;
    return out;
}
function optionalNumber(req, field) {
    const v = req[field];
    if (!present(v))
        return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v))
        throw invalid(`${field} 必须是数字`, 'invalid_type');
    return v;
}
/**
 * The input items as chat messages. function_call items join the assistant turn before them (one assistant message
 * with tool_calls, as chat wants it); reasoning items become reasoning_content of the assistant turn that follows
 * and are dropped when none follows; images returned by a tool cannot ride on a tool message, so they follow the
 * run of tool messages as one user message.
 */
function inputMessages(items) {
    const messages = [];
    let reasoning = '';
    let assistant = null;
    let toolImages = [];
    const flushToolImages = () => {
        if (toolImages.length > 0)
            messages.push({ role: 'user', content: toolImages });
        toolImages = [];
    };
    const takeReasoning = (msg) => {
        if (reasoning)
            msg.reasoning_content = (msg.reasoning_content ?? '') + reasoning;
        reasoning = '';
    };
    for (const raw of items) {
        if (!isObj(raw))
            throw invalid('input 数组中的条目必须是对象', 'invalid_type');
        const type = raw.type ?? 'message';
        if (type !== 'function_call_output')
            flushToolImages();
        switch (type) {
            case 'message': {
                const msg = messageOf(raw);
                if (msg.role === 'assistant') {
                    takeReasoning(msg);
                    assistant = msg;
                }
                else {
                    reasoning = '';
                    assistant = null;
                }
                messages.push(msg);
                break;
            }
            case 'function_call': {
                const call = toolCallOf(raw);
                if (!assistant) {
                    assistant = { role: 'assistant', content: null };
                    messages.push(assistant);
                }
                takeReasoning(assistant);
                (assistant.tool_calls ??= []).push(call);
                break;
            }
            case 'function_call_output': {
                if (typeof raw.call_id !== 'string' || !raw.call_id)
                    throw invalid('function_call_output 缺少 call_id', 'missing_required_parameter');
                const output = toolOutput(raw.output);
                messages.push({ role: 'tool', tool_call_id: raw.call_id, content: output.text });
                toolImages.push(...output.media);
                reasoning = '';
                assistant = null;
                break;
            }
            case 'reasoning':
                reasoning += reasoningText(raw);
                break;
            case 'item_reference':
                throw unknownReference('item_reference', raw.id);
            default:
                throw unsupported(`本渠道不支持 input 条目类型 ${String(type)}，仅支持消息、function_call、function_call_output 与 reasoning`);
        }
    }
    flushToolImages();
    return messages;
}
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);
function messageOf(item) {
    const role = item.role;
    if (typeof role !== 'string' || !ROLES.has(role))
        throw invalid('消息的 role 必须是 user、assistant、system 或 developer', 'invalid_value');
    const content = item.content;
    if (typeof content === 'string')
        return { role: role, content };
    if (!Array.isArray(content))
        throw invalid('消息的 content 必须是字符串或数组', 'invalid_type');
    const parts = content.map(partOf);
    if (role === 'assistant')
        return { role: 'assistant', content: textOnly(parts, '') };
    if (role === 'system' || role === 'developer')
        return { role, content: textOnly(parts, '\n') };
    return { role: 'user', content: simplify(parts) };
}
function partOf(raw) {
    if (!isObj(raw))
        throw invalid('content 数组中的条目必须是对象', 'invalid_type');
    switch (raw.type) {
        case 'input_text':
        case 'output_text':
            if (typeof raw.text !== 'string')
                throw invalid(`${raw.type} 缺少 text`, 'missing_required_parameter');
            return { type: 'text', text: raw.text };
        case 'refusal':
            return { type: 'text', text: typeof raw.refusal === 'string' ? raw.refusal : '' };
        case 'input_image': {
            if (typeof raw.image_url !== 'string' || !raw.image_url) {
                throw unsupported('本渠道不支持以 file_id 引用图片，请在 image_url 中给出链接或 data URL');
            }
            const detail = raw.detail === 'low' || raw.detail === 'high' || raw.detail === 'auto' ? raw.detail : undefined;
            return { type: 'image_url', image_url: detail ? { url: raw.image_url, detail } : { url: raw.image_url } };
        }
        case 'input_file': {
            if (typeof raw.file_url === 'string' && !raw.file_data)
                throw unsupported('本渠道不支持 file_url，请改用 file_data（base64）');
            const file = {};
            if (typeof raw.filename === 'string')
                file.filename = raw.filename;
            if (typeof raw.file_data === 'string')
                file.file_data = raw.file_data;
            if (typeof raw.file_id === 'string')
                file.file_id = raw.file_id;
            if (!file.file_data && !file.file_id)
                throw invalid('input_file 需要 file_data 或 file_id', 'missing_required_parameter');
            return { type: 'file', file };
        }
        default:
            throw unsupported(`本渠道不支持内容类型 ${String(raw.type)}`);
    }
}
const isText = (p) => p.type === 'text';
function textOnly(parts, separator) {
    return parts
        .filter(isText)
        .map((p) => p.text)
        .join(separator);
}
/** Text-only content becomes a plain string: many OpenAI-compatible servers reject part arrays. */
function simplify(parts) {
    return parts.every(isText) ? textOnly(parts, '\n') : parts;
}
function toolCallOf(item) {
    if (typeof item.call_id !== 'string' || !item.call_id)
        throw invalid('function_call 缺少 call_id', 'missing_required_parameter');
    if (typeof item.name !== 'string' || !item.name)
        throw invalid('function_call 缺少 name', 'missing_required_parameter');
    const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
    return { id: item.call_id, type: 'function', function: { name: item.name, arguments: args } };
}
function toolOutput(output) {
    if (typeof output === 'string')
        return { text: output, media: [] };
    if (!Array.isArray(output))
        throw invalid('function_call_output 的 output 必须是字符串或数组', 'invalid_type');
    const parts = output.map(partOf);
    return { text: textOnly(parts, '\n'), media: parts.filter((p) => !isText(p)) };
}
/** The thought text of a reasoning item: its full reasoning_text when given, else its summary. */
function reasoningText(item) {
    const texts = (list) => Array.isArray(list)
        ? list
            .filter((p) => isObj(p) && typeof p.text === 'string')
            .map((p) => p.text)
            .join('\n')
        : '';
    return texts(item.content) || texts(item.summary);
}
function applyTools(out, rawTools, rawChoice) {
    if (present(rawTools) && !Array.isArray(rawTools))
        throw invalid('tools 必须是数组', 'invalid_type');
    let tools = (rawTools ?? []).map(toolOf);
    if (present(rawChoice)) {
        if (typeof rawChoice === 'string') {
            if (rawChoice !== 'none' && rawChoice !== 'auto' && rawChoice !== 'required')
                throw invalid('tool_choice 只能是 none、auto 或 required', 'invalid_value');
            out.tool_choice = rawChoice;
        }
        else if (isObj(rawChoice) && rawChoice.type === 'function') {
            if (typeof rawChoice.name !== 'string' || !rawChoice.name)
                throw invalid('tool_choice 缺少 name', 'missing_required_parameter');
            out.tool_choice = { type: 'function', function: { name: rawChoice.name } };
        }
        else if (isObj(rawChoice) && rawChoice.type === 'allowed_tools') {
            // Chat has no allowed-tools list: offer only those tools, with the same mode.
            const allowed = Array.isArray(rawChoice.tools) ? rawChoice.tools : [];
            const names = new Set();
            for (const t of allowed) {
                if (!isObj(t) || t.type !== 'function' || typeof t.name !== 'string')
                    throw unsupported('allowed_tools 中只支持 function 类型的工具');
                names.add(t.name);
            }
            tools = tools.filter((t) => names.has(t.function.name));
            out.tool_choice = rawChoice.mode === 'required' ? 'required' : 'auto';
        }
        else {
            const type = isObj(rawChoice) ? String(rawChoice.type) : typeof rawChoice;
            throw unsupported(`本渠道不支持 tool_choice 类型 ${type}，仅支持 function 工具`);
        }
    }
    if (tools.length > 0)
        out.tools = tools;
}
function toolOf(raw) {
    if (!isObj(raw))
        throw invalid('tools 数组中的条目必须是对象', 'invalid_type');
    if (raw.type !== 'function') {
        throw unsupported(`本渠道不支持内置工具 ${String(raw.type)}（如 web_search、file_search、computer_use），仅支持 function 类型的工具`);
    }
    if (typeof raw.name !== 'string' || !raw.name)
        throw invalid('function 工具缺少 name', 'missing_required_parameter');
    const fn = { name: raw.name };
    if (typeof raw.description === 'string')
        fn.description = raw.description;
    if (isObj(raw.parameters))
        fn.parameters = raw.parameters;
    if (typeof raw.strict === 'boolean')
        fn.strict = raw.strict;
    return { type: 'function', function: fn };
}
/**
 * Responses effort levels folded into chat's three: the lowest non-zero levels think lightly, the highest think
 * hard; `none` asks for no reasoning, which chat expresses by leaving reasoning_effort out.
 */
const EFFORT = {
    minimal: 'low',
    low: 'low',
    medium: 'medium',
    high: 'high',
    xhigh: 'high',
    max: 'high',
};
function reasoningEffort(reasoning) {
    if (!present(reasoning))
        return undefined;
    if (!isObj(reasoning))
        throw invalid('reasoning 必须是对象', 'invalid_type');
    return typeof reasoning.effort === 'string' ? EFFORT[reasoning.effort] : undefined;
}
function applyText(out, text) {
    if (!present(text))
        return;
    if (!isObj(text))
        throw invalid('text 必须是对象', 'invalid_type');
    if (typeof text.verbosity === 'string')
        out.verbosity = text.verbosity;
    const format = text.format;
    if (!present(format))
        return;
    if (!isObj(format))
        throw invalid('text.format 必须是对象', 'invalid_type');
    switch (format.type) {
        case 'text':
            return;
        case 'json_object':
            out.response_format = { type: 'json_object' };
            return;
        case 'json_schema': {
            if (typeof format.name !== 'string' || !format.name)
                throw invalid('text.format 缺少 name', 'missing_required_parameter');
            const schema = { name: format.name };
            if (isObj(format.schema))
                schema.schema = format.schema;
            if (typeof format.description === 'string')
                schema.description = format.description;
            if (typeof format.strict === 'boolean')
                schema.strict = format.strict;
            out.response_format = { type: 'json_schema', json_schema: schema };
            return;
        }
        default:
            throw unsupported(`本渠道不支持 text.format 类型 ${String(format.type)}`);
    }
}
//# sourceMappingURL=to-chat.js.map