import { anyObject, bodyCheck, bool, named, nullable, str } from '../body-schema.js';
const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Properties by their camelCase names, each also accepted under its snake_case name. */
function fields(props) {
    const out = {};
    for (const [name, schema] of Object.entries(props)) {
        out[name] = schema;
        out[snake(name)] = schema;
    }
    return out;
}
/** A message with these fields (either spelling); `required` fields by their camelCase name must come in one of them. */
function message(props, required = []) {
    const schema = { type: 'object', properties: fields(props) };
    const both = required.map((name) => (snake(name) === name ? { required: [name] } : { anyOf: [{ required: [name] }, { required: [snake(name)] }] }));
    if (both.length > 0)
        schema.allOf = both;
    return schema;
}
/** A repeated field: a list of `item`, or one `item` on its own. */
function repeated(item) {
    const types = [].concat(item.type ?? 'object');
    return { type: ['array', ...types], if: { type: 'array' }, then: { items: item }, else: item };
}
const int = { type: ['integer', 'string'] };
const num = { type: ['number', 'string'] };
const enumValue = { type: ['string', 'integer'] };
const blob = named('gemini.blob', message({ mimeType: str, data: str }, ['mimeType', 'data']));
const fileData = named('gemini.fileData', message({ mimeType: str, fileUri: str }, ['fileUri']));
const part = named('gemini.part', message({
    text: str,
    thought: bool,
    thoughtSignature: str,
    inlineData: blob,
    fileData,
    functionCall: message({ name: str, args: nullable(anyObject), id: str }, ['name']),
    functionResponse: message({ name: str, response: anyObject, id: str }, ['name']),
    executableCode: anyObject,
    codeExecutionResult: anyObject,
    videoMetadata: anyObject,
}));
const content = named('gemini.content', message({ role: str, parts: repeated(part) }));
const functionDeclaration = named('gemini.functionDeclaration', message({ name: str, description: str, parameters: anyObject, response: anyObject, behavior: enumValue }, ['name']));
const tool = named('gemini.tool', message({ functionDeclarations: repeated(functionDeclaration) }));
const toolConfig = named('gemini.toolConfig', message({ functionCallingConfig: message({ mode: enumValue, allowedFunctionNames: repeated(str) }) }));
const generationConfig = named('gemini.generationConfig', message({
    maxOutputTokens: int,
    temperature: num,
    topP: num,
    topK: int,
    candidateCount: int,
    stopSequences: repeated(str),
    presencePenalty: num,
    frequencyPenalty: num,
    seed: int,
    responseMimeType: str,
    responseSchema: anyObject,
    responseModalities: repeated(enumValue),
    responseLogprobs: bool,
    logprobs: int,
    thinkingConfig: message({ thinkingBudget: int, includeThoughts: bool, thinkingLevel: enumValue }),
}));
const safetySetting = named('gemini.safetySetting', message({ category: enumValue, threshold: enumValue }));
const generateFields = {
    contents: repeated(content),
    systemInstruction: content,
    tools: repeated(tool),
    toolConfig,
    safetySettings: repeated(safetySetting),
    generationConfig,
    cachedContent: str,
};
const generateContent = message(generateFields, ['contents']);
/** countTokens takes contents alone or a whole generateContentRequest; what is counted is checked like generateContent. */
const countTokens = message({ ...generateFields, generateContentRequest: message({ ...generateFields, model: str }) });
const embedRequest = named('gemini.embedContentRequest', message({ model: str, content, taskType: enumValue, title: str, outputDimensionality: int }, ['content']));
const batchEmbedContents = message({ requests: { ...repeated(embedRequest), minItems: 1 } }, ['requests']);
/** Each action's body check, and the request message Google names in its errors. */
const generate = { check: bodyCheck(generateContent), request: 'GenerateContentRequest' };
export const GEMINI_BODIES = {
    generateContent: generate,
    streamGenerateContent: generate,
    countTokens: { check: bodyCheck(countTokens), request: 'CountTokensRequest' },
    embedContent: { check: bodyCheck(embedRequest), request: 'EmbedContentRequest' },
    batchEmbedContents: { check: bodyCheck(batchEmbedContents), request: 'BatchEmbedContentsRequest' },
};
//# sourceMappingURL=schema.js.map