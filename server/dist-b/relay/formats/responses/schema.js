import { anyObject, bodyCheck, bool, int, list, named, nullable, num, obj, oneOfTypes, str, strList, tagged } from '../body-schema.js';
/*
 * The shape of OpenAI's Responses request (platform.openai.com/docs/api-reference/responses/create). Item and tool
 * types OpenAI adds later pass with only their `type` checked.
 */
const maybeStr = nullable(str);
const part = named('responses.part', tagged('type', { type: str }, {
    input_text: obj({ text: str }, ['text']),
    output_text: obj({ text: str }, ['text']),
    input_image: obj({ image_url: maybeStr, file_id: maybeStr, detail: str }),
    input_file: obj({ file_data: str, file_id: maybeStr, file_url: str, filename: str }),
    refusal: obj({ refusal: str }, ['refusal']),
}));
const messageItem = obj({ role: str, content: { type: ['string', 'array'], items: part } }, ['role', 'content']);
/** An input item: a message (typed or not), a function call or its output, a reference; others by type alone. */
const item = named('responses.item', {
    ...tagged('type', { type: str, id: str }, {
        message: messageItem,
        function_call: obj({ call_id: str, name: str, arguments: str }, ['call_id', 'name', 'arguments']),
        function_call_output: obj({ call_id: str, output: oneOfTypes('string', 'array') }, ['call_id', 'output']),
        item_reference: obj({ id: str }, ['id']),
        reasoning: obj({ summary: list(anyObject) }),
    }, []),
    if: { not: { required: ['type'] } },
    then: messageItem,
});
/** Function tools need a name; hosted tools (web_search, file_search, mcp...) have their own fields. */
const tool = named('responses.tool', tagged('type', { type: str }, { function: obj({ name: str, parameters: nullable(anyObject), strict: nullable(bool) }, ['name']) }));
const responses = obj({
    model: str,
    input: { type: ['string', 'array'], items: item },
    instructions: nullable(oneOfTypes('string', 'array')),
    stream: nullable(bool),
    max_output_tokens: nullable(int),
    max_tool_calls: nullable(int),
    temperature: nullable(num),
    top_p: nullable(num),
    tools: nullable(list(tool)),
    tool_choice: oneOfTypes('string', 'object'),
    parallel_tool_calls: nullable(bool),
    text: nullable(obj({ format: obj({ type: str }, ['type']), verbosity: maybeStr })),
    reasoning: nullable(obj({ effort: maybeStr, summary: maybeStr })),
    previous_response_id: maybeStr,
    store: nullable(bool),
    background: nullable(bool),
    metadata: nullable(anyObject),
    include: nullable(strList),
    truncation: maybeStr,
    user: str,
    service_tier: maybeStr,
    prompt_cache_key: str,
}, ['model', 'input']);
/** POST /v1/responses */
export const checkResponsesBody = bodyCheck(responses);
//# sourceMappingURL=schema.js.map