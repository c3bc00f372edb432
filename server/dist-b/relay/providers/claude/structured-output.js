import { RelayError } from '../../errors.js';
/*
 * Structured output (OpenAI response_format, Gemini responseSchema, Responses text.format, all canonical
 * response_format) on Claude. Claude 4.5 and later constrain the answer to a JSON schema with
 * output_config.format; for older models, and for schemas outside the subset output_config accepts, the schema
 * becomes the input schema of a tool the model must call, and that tool's input is turned back into the answer's
 * text. json_object (no schema) always takes the tool, with any object as its input.
 */
/** Marks the tool that carries a response format, so its call can be told from the client's own tools. */
export const JSON_TOOL_DESCRIPTION = 'Respond to the user with this tool: its input is the answer, in the JSON format the user asked for.';
const JSON_TOOL_NAME = 'json_response';
const isObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
/**
 * Claude models with structured outputs: the 4.5 generation and every later one (Anthropic's list: Opus 4.5 and 4.6,
 * Sonnet 4.5 and 4.6, Haiku 4.5), under Anthropic's names and Bedrock's ids (anthropic.claude-…, us.anthropic.…).
 */
export function hasOutputFormat(model) {
    const m = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d+))?/.exec(model);
    if (m) {
        const major = Number(m[1]);
        const minor = m[2] && m[2].length < 8 ? Number(m[2]) : 0;
        return major > 4 || (major === 4 && minor >= 5);
    }
    // Families named after 4.x (claude-fable-5, claude-mythos-…) all have it; claude-3…, claude-2…, claude-instant do not.
    return /claude-(?!instant|\d|opus|sonnet|haiku)[a-z]+-\d/.test(model);
}
/** String formats output_config accepts (Anthropic's SDK keeps the same list). */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
const KEYWORDS = new Set(['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf', '$ref', '$defs', 'definitions', 'format', 'minItems', '$schema']);
/** Whether a schema stays within what output_config.format takes (every object closed, no numeric/string bounds). */
export function fitsOutputFormat(schema) {
    if (!isObject(schema))
        return false;
    for (const [key, value] of Object.entries(schema)) {
        if (!KEYWORDS.has(key))
            return false;
        if (key === 'format' && !FORMATS.has(String(value)))
            return false;
        if (key === 'minItems' && value !== 0 && value !== 1)
            return false;
        if (key === 'properties' || key === '$defs' || key === 'definitions') {
            if (!isObject(value) || !Object.values(value).every(fitsOutputFormat))
                return false;
        }
        if ((key === 'anyOf' || key === 'allOf') && (!Array.isArray(value) || !value.every(fitsOutputFormat)))
            return false;
        if (key === 'items' && !fitsOutputFormat(value))
            return false;
    }
    const isObjectType = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
    return !isObjectType || schema.additionalProperties === false;
}
/** The name of the response tool: json_response, or the first json_response_<n> no client tool uses. */
export function jsonToolName(req) {
    const taken = new Set((req.tools ?? []).map((t) => t.function?.name));
    let name = JSON_TOOL_NAME;
    for (let n = 1; taken.has(name); n++)
        name = `${JSON_TOOL_NAME}_${n}`;
    return name;
}
const refuse = (message) => new RelayError(400, message, 'unsupported_response_format', 'invalid_request_error');
/**
 * Applies the request's response_format to a Claude request under construction (tools and tool_choice already set
 * from the client's). `native`: the target offers output_config.format for this model.
 */
export function applyResponseFormat(out, req, native) {
    const rf = req.response_format;
    if (!rf || rf.type === 'text')
        return;
    if (rf.type !== 'json_object' && rf.type !== 'json_schema')
        throw refuse(`Claude 渠道不支持 response_format 类型 ${String(rf.type)}`);
    const given = rf.type === 'json_schema' ? rf.json_schema?.schema : undefined;
    if (rf.type === 'json_schema' && !isObject(given))
        throw refuse('response_format.json_schema 缺少 schema');
    // The dialect marker constrains nothing and is left out.
    const { $schema: _dialect, ...schema } = (given ?? {});
    if (given && native && fitsOutputFormat(schema)) {
        out.output_config = { ...(isObject(out.output_config) ? out.output_config : {}), format: { type: 'json_schema', schema } };
        return;
    }
    if (given && schema.type !== 'object')
        throw refuse('Claude 渠道的结构化输出要求 schema 的根类型为 object');
    const name = jsonToolName(req);
    const tool = { name, description: JSON_TOOL_DESCRIPTION, input_schema: given ? schema : { type: 'object' } };
    const clientTools = out.tools ?? [];
    out.tools = [...clientTools, tool];
    const choice = out.tool_choice;
    // The client's own tools stay callable unless it turned them off; otherwise the model must answer through the tool.
    if (clientTools.length > 0 && (!choice || choice.type === 'auto' || choice.type === 'any')) {
        out.tool_choice = { type: 'any', ...(choice && 'disable_parallel_tool_use' in choice ? { disable_parallel_tool_use: choice.disable_parallel_tool_use } : {}) };
    }
    else if (!choice || choice.type !== 'tool') {
        out.tool_choice = { type: 'tool', name };
    }
}
/** The response tool's name when a Claude request built here carries one (null otherwise). */
export function jsonToolOf(converted) {
    const tools = converted?.tools;
    if (!Array.isArray(tools))
        return null;
    const tool = tools.find((t) => isObject(t) && t.description === JSON_TOOL_DESCRIPTION);
    return tool ? String(tool.name) : null;
}
/** A decoded answer whose response tool was called: the tool's input becomes the message text. */
export function unwrapJsonTool(answer, name) {
    for (const choice of answer.choices) {
        const calls = choice.message.tool_calls ?? [];
        const json = calls.find((c) => c.function.name === name);
        if (!json)
            continue;
        const rest = calls.filter((c) => c !== json);
        choice.message.content = json.function.arguments;
        if (rest.length > 0)
            choice.message.tool_calls = rest;
        else {
            delete choice.message.tool_calls;
            if (choice.finish_reason === 'tool_calls')
                choice.finish_reason = 'stop';
        }
    }
    return answer;
}
//# sourceMappingURL=structured-output.js.map