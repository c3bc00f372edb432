import { anyObject, bodyCheck, bool, int, list, nullable, num, obj, oneOfTypes, str, strList, tagged, } from '../body-schema.js';
/*
 * The shapes of OpenAI's request bodies (platform.openai.com/docs/api-reference), as far as types go. Optional
 * fields OpenAI accepts as null are nullable here too.
 */
const maybeInt = nullable(int);
const maybeNum = nullable(num);
const maybeStr = nullable(str);
const maybeBool = nullable(bool);
const stop = { type: ['string', 'array', 'null'], items: str };
const contentPart = tagged('type', { type: str }, {
    text: obj({ text: str }, ['text']),
    // A bare URL string is what some older clients send; OpenAI documents the object.
    image_url: obj({ image_url: { type: ['string', 'object'], properties: { url: str, detail: str }, required: ['url'] } }, ['image_url']),
    input_audio: obj({ input_audio: obj({ data: str, format: str }, ['data']) }, ['input_audio']),
    file: obj({ file: obj({ file_data: str, file_id: str, filename: str }) }, ['file']),
    refusal: obj({ refusal: str }, ['refusal']),
});
const functionCall = obj({ name: str, arguments: str }, ['name']);
const toolCall = {
    ...obj({ id: str, type: str, function: functionCall, custom: anyObject }),
    if: { properties: { type: { const: 'custom' } }, required: ['type'] },
    then: { required: ['custom'] },
    else: { required: ['function'] },
};
const message = obj({
    role: str,
    content: { type: ['string', 'array', 'null'], items: contentPart },
    name: str,
    tool_call_id: str,
    tool_calls: nullable(list(toolCall)),
    function_call: nullable(functionCall),
    reasoning_content: maybeStr,
    refusal: maybeStr,
}, ['role']);
const functionDefinition = obj({ name: str, description: str, parameters: anyObject, strict: maybeBool }, ['name']);
/** A tool: `function` tools (the default type) need their function; other types (custom, hosted) pass. */
const tool = {
    ...obj({ type: str, function: functionDefinition }),
    if: { anyOf: [{ not: { required: ['type'] } }, { properties: { type: { const: 'function' } } }] },
    then: { required: ['function'] },
};
/** A mode by name (OpenAI's none/auto/required; compatible servers add more), or a choice of one tool. */
const toolChoice = {
    type: ['string', 'object'],
    if: { type: 'object' },
    then: tagged('type', { type: str }, { function: obj({ function: obj({ name: str }, ['name']) }, ['function']), custom: obj({ custom: obj({ name: str }, ['name']) }, ['custom']) }),
};
const chat = obj({
    model: str,
    messages: { ...list(message), minItems: 1 },
    stream: maybeBool,
    stream_options: nullable(obj({ include_usage: bool })),
    max_tokens: maybeInt,
    max_completion_tokens: maybeInt,
    n: maybeInt,
    temperature: maybeNum,
    top_p: maybeNum,
    presence_penalty: maybeNum,
    frequency_penalty: maybeNum,
    seed: maybeInt,
    stop,
    tools: nullable(list(tool)),
    tool_choice: toolChoice,
    parallel_tool_calls: maybeBool,
    functions: list(functionDefinition),
    function_call: oneOfTypes('string', 'object'),
    response_format: nullable(obj({ type: str }, ['type'])),
    logprobs: maybeBool,
    top_logprobs: maybeInt,
    logit_bias: nullable(anyObject),
    user: str,
    reasoning_effort: maybeStr,
    modalities: nullable(strList),
    metadata: nullable(anyObject),
    store: maybeBool,
    service_tier: maybeStr,
}, ['messages']);
/** Text, a list of texts, token ids, or lists of token ids. */
const textOrTokens = { type: ['string', 'array'], items: { type: ['string', 'integer', 'array'], items: int } };
const completions = obj({
    model: str,
    prompt: nullable(textOrTokens),
    stream: maybeBool,
    stream_options: nullable(obj({ include_usage: bool })),
    max_tokens: maybeInt,
    n: maybeInt,
    best_of: maybeInt,
    temperature: maybeNum,
    top_p: maybeNum,
    presence_penalty: maybeNum,
    frequency_penalty: maybeNum,
    logprobs: maybeInt,
    echo: maybeBool,
    seed: maybeInt,
    stop,
    suffix: maybeStr,
    logit_bias: nullable(anyObject),
    user: str,
}, ['prompt']);
const embeddings = obj({ model: str, input: textOrTokens, dimensions: int, encoding_format: str, user: str }, ['input']);
const moderationInput = { type: ['string', 'array'], items: { type: ['string', 'object'], properties: { type: str }, required: ['type'] } };
const moderations = obj({ model: str, input: moderationInput }, ['input']);
const images = obj({
    model: str,
    prompt: str,
    // OpenAI makes 1 to 10 images a call; the price of a call is multiplied by n.
    n: { type: ['integer', 'null'], minimum: 1, maximum: 10 },
    size: maybeStr,
    quality: maybeStr,
    style: maybeStr,
    response_format: maybeStr,
    background: maybeStr,
    output_format: maybeStr,
    output_compression: maybeInt,
    moderation: maybeStr,
    user: str,
}, ['prompt']);
const speech = obj({ model: str, input: str, voice: oneOfTypes('string', 'object'), instructions: str, response_format: str, speed: num, stream_format: str }, ['input']);
/** Rerank as Jina and Cohere take it (OpenAI has none): a query and documents as texts or objects. */
const rerank = obj({
    model: str,
    query: oneOfTypes('string', 'object'),
    documents: list(oneOfTypes('string', 'object')),
    top_n: int,
    return_documents: bool,
    max_chunks_per_doc: int,
}, ['query', 'documents']);
const CHECKS = {
    chat: bodyCheck(chat),
    completions: bodyCheck(completions),
    embeddings: bodyCheck(embeddings),
    moderations: bodyCheck(moderations),
    images: bodyCheck(images),
    speech: bodyCheck(speech),
    rerank: bodyCheck(rerank),
};
/** The check of an OpenAI JSON body by mode (none for multipart uploads). */
export function openAIBodyCheck(mode) {
    return CHECKS[mode];
}
//# sourceMappingURL=schema.js.map