import { anyObject, bodyCheck, bool, int, list, nullable, num, obj, oneOfTypes, str, strList, tagged } from '../body-schema.js';
/*
 * The shape of Anthropic's Messages request (docs.anthropic.com/en/api/messages) and of count_tokens, which takes
 * the same body without max_tokens. Block types Anthropic adds later (documents, search results, server tool
 * blocks...) pass with only their `type` checked.
 */
const cacheControl = nullable(anyObject);
const textBlock = obj({ type: str, text: str, cache_control: cacheControl, citations: nullable(list(anyObject)) }, ['type', 'text']);
const source = tagged('type', { type: str }, {
    base64: obj({ media_type: str, data: str }, ['media_type', 'data']),
    url: obj({ url: str }, ['url']),
    file: obj({ file_id: str }, ['file_id']),
    text: obj({ media_type: str, data: str }, ['data']),
});
/** Blocks inside a tool result: only their tag is required; known ones are checked like top-level blocks. */
const resultBlock = tagged('type', { type: str }, {
    text: obj({ text: str }, ['text']),
    image: obj({ source }, ['source']),
    document: obj({ source }, ['source']),
});
const block = tagged('type', { type: str, cache_control: cacheControl }, {
    text: obj({ text: str, citations: nullable(list(anyObject)) }, ['text']),
    image: obj({ source }, ['source']),
    document: obj({ source, title: nullable(str), context: nullable(str) }, ['source']),
    tool_use: obj({ id: str, name: str, input: anyObject }, ['id', 'name', 'input']),
    tool_result: obj({ tool_use_id: str, content: { type: ['string', 'array'], items: resultBlock }, is_error: bool }, ['tool_use_id']),
    thinking: obj({ thinking: str, signature: str }, ['thinking']),
    redacted_thinking: obj({ data: str }, ['data']),
});
const message = obj({ role: str, content: { type: ['string', 'array'], items: block } }, ['role', 'content']);
/** Custom tools (no type, or `custom`) and Anthropic's server tools (typed): every one has a name. */
const tool = obj({ type: str, name: str, description: str, input_schema: anyObject, cache_control: cacheControl }, ['name']);
const toolChoice = {
    ...obj({ type: str, name: str, disable_parallel_tool_use: bool }, ['type']),
    if: { properties: { type: { const: 'tool' } } },
    then: { required: ['name'] },
};
const thinking = {
    ...obj({ type: str, budget_tokens: int }, ['type']),
    if: { properties: { type: { const: 'enabled' } } },
    then: { required: ['budget_tokens'] },
};
const common = {
    model: str,
    messages: list(message),
    system: { type: ['string', 'array'], items: textBlock },
    tools: list(tool),
    tool_choice: toolChoice,
    thinking,
};
const messages = obj({
    ...common,
    max_tokens: int,
    stream: bool,
    temperature: num,
    top_p: num,
    top_k: int,
    stop_sequences: strList,
    metadata: obj({ user_id: nullable(str) }),
    service_tier: str,
    mcp_servers: list(anyObject),
    container: nullable(oneOfTypes('string', 'object')),
}, ['model', 'messages', 'max_tokens']);
const countTokens = obj(common, ['model', 'messages']);
/** POST /v1/messages */
export const checkClaudeMessages = bodyCheck(messages);
/** POST /v1/messages/count_tokens */
export const checkClaudeCountTokens = bodyCheck(countTokens);
//# sourceMappingURL=schema.js.map