import { RelayError } from '../../errors.js';
import { cleanSchema } from './schema.js';
export const HARM_CATEGORIES = [
    'HARM_CATEGORY_HARASSMENT',
    'HARM_CATEGORY_HATE_SPEECH',
    'HARM_CATEGORY_SEXUALLY_EXPLICIT',
    'HARM_CATEGORY_DANGEROUS_CONTENT',
    'HARM_CATEGORY_CIVIC_INTEGRITY',
];
/** Budgets per effort level; Gemini 2.5 accepts up to 24576 (Flash) / 32768 (Pro). */
const THINKING_BUDGET = { low: 1024, medium: 8192, high: 24576 };
/**
 * Google's documented placeholder for function calls whose thought signature is unknown (histories written by
 * another model, or converted through OpenAI's shape, which has no place for signatures): Gemini 3 refuses a
 * functionCall part in the history without one.
 */
const SKIP_SIGNATURE = 'skip_thought_signature_validator';
/** A ChatRequest as a generateContent body for a Gemini channel. */
export function chatToGeminiRequest(req, opts) {
    const system = [];
    const contents = [];
    const callNames = new Map();
    const add = (role, parts) => {
        if (parts.length === 0)
            return;
        const last = contents[contents.length - 1];
        // Gemini wants user and model turns to alternate: consecutive same-role messages become one turn.
        if (last && last.role === role)
            last.parts.push(...parts);
        else
            contents.push({ role, parts });
    };
    for (const m of req.messages) {
        if (m.role === 'system' || m.role === 'developer') {
            const text = textOf(m.content);
            if (text)
                system.push({ text });
        }
        else if (m.role === 'assistant') {
            add('model', modelParts(m, callNames));
        }
        else if (m.role === 'tool') {
            const id = m.tool_call_id ?? '';
            add('user', [{ functionResponse: { name: callNames.get(id) ?? m.name ?? 'function', response: responseOf(textOf(m.content)) } }]);
        }
        else {
            add('user', userParts(m.content));
        }
    }
    const out = { contents };
    if (system.length > 0)
        out.systemInstruction = { parts: system };
    const declarations = declarationsOf(req.tools ?? []);
    if (declarations.length > 0)
        out.tools = [{ functionDeclarations: declarations }];
    if (req.tool_choice !== undefined && declarations.length > 0)
        out.toolConfig = toolConfigOf(req.tool_choice);
    const gc = generationConfigOf(req);
    if (Object.keys(gc).length > 0)
        out.generationConfig = gc;
    out.safetySettings = safetySettingsOf(opts.safetySettings);
    return out;
}
function textOf(content) {
    if (typeof content === 'string')
        return content;
    if (!Array.isArray(content))
        return '';
    return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : p.type === 'refusal' && typeof p.refusal === 'string' ? p.refusal : '')).join('');
}
const unsupported = (message) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');
/**
 * A model turn. Its thought signature goes back where Gemini puts it: on the first function call of the turn, else on
 * the last part.
 */
function modelParts(m, callNames) {
    const parts = [];
    const signature = typeof m.reasoning_signature === 'string' && m.reasoning_signature ? m.reasoning_signature : '';
    const text = textOf(m.content);
    if (text)
        parts.push({ text });
    (m.tool_calls ?? []).forEach((call, i) => {
        callNames.set(call.id, call.function.name);
        const part = { functionCall: { name: call.function.name, args: argsOf(call.function.arguments) } };
        if (i === 0)
            part.thoughtSignature = signature || SKIP_SIGNATURE;
        parts.push(part);
    });
    if (signature && !m.tool_calls?.length && parts.length > 0)
        parts[parts.length - 1].thoughtSignature = signature;
    return parts;
}
function argsOf(args) {
    try {
        const parsed = JSON.parse(args || '{}');
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : { value: parsed };
    }
    catch {
        return { arguments: args };
    }
}
/** functionResponse.response must be an object: a tool's JSON object is sent as is, anything else wrapped. */
function responseOf(text) {
    try {
        const parsed = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            return parsed;
    }
    catch {
        // plain text result
    }
    return { content: text };
}
function userParts(content) {
    if (typeof content === 'string')
        return content ? [{ text: content }] : [];
    if (!Array.isArray(content))
        return [];
    const parts = [];
    for (const p of content) {
        const part = partOf(p);
        if (part)
            parts.push(part);
    }
    return parts;
}
function partOf(p) {
    if (p.type === 'text' && typeof p.text === 'string')
        return { text: p.text };
    if (p.type === 'refusal' && typeof p.refusal === 'string')
        return { text: p.refusal };
    if (p.type === 'image_url') {
        const img = p.image_url;
        const url = typeof img === 'string' ? img : typeof img?.url === 'string' ? img.url : '';
        if (!url)
            throw unsupported('image_url 缺少 url');
        return mediaOf(url);
    }
    if (p.type === 'input_audio') {
        const audio = p.input_audio;
        if (typeof audio?.data !== 'string')
            throw unsupported('input_audio 缺少 data');
        const format = typeof audio.format === 'string' ? audio.format : 'wav';
        return { inlineData: { mimeType: `audio/${format === 'mp3' ? 'mpeg' : format}`, data: audio.data } };
    }
    if (p.type === 'file') {
        const file = p.file;
        if (typeof file?.file_data !== 'string')
            throw unsupported('Gemini 渠道的文件内容必须是 file_data（不支持 file_id）');
        return mediaOf(file.file_data);
    }
    return null;
}
function mediaOf(url) {
    const m = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
    if (m)
        return { inlineData: { mimeType: m[1], data: m[2] } };
    return { fileData: { mimeType: guessMimeType(url), fileUri: url } };
}
const MIME_BY_EXTENSION = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    webp: 'image/webp',
    gif: 'image/gif',
    heic: 'image/heic',
    heif: 'image/heif',
    pdf: 'application/pdf',
    mp3: 'audio/mpeg',
    wav: 'audio/wav',
    mp4: 'video/mp4',
    mov: 'video/quicktime',
    webm: 'video/webm',
    txt: 'text/plain',
};
/** fileData needs a mimeType; without a known extension an image is the likeliest (image_url parts). */
export function guessMimeType(url) {
    const path = url.split(/[?#]/)[0];
    const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
    return MIME_BY_EXTENSION[ext] ?? 'image/jpeg';
}
function declarationsOf(tools) {
    return tools
        .filter((t) => t.type === 'function' && t.function?.name)
        .map((t) => {
        const d = { name: t.function.name };
        if (t.function.description)
            d.description = t.function.description;
        const params = cleanSchema(t.function.parameters);
        // An OBJECT with no properties is refused: a function without parameters has none at all.
        const props = params.properties;
        if (props && Object.keys(props).length > 0)
            d.parameters = params;
        return d;
    });
}
function toolConfigOf(choice) {
    if (choice === 'none')
        return { functionCallingConfig: { mode: 'NONE' } };
    if (choice === 'required')
        return { functionCallingConfig: { mode: 'ANY' } };
    if (typeof choice === 'object' && choice.function?.name) {
        return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
    }
    return { functionCallingConfig: { mode: 'AUTO' } };
}
function generationConfigOf(req) {
    const gc = {};
    const max = req.max_completion_tokens ?? req.max_tokens;
    if (typeof max === 'number' && max > 0)
        gc.maxOutputTokens = max;
    if (typeof req.temperature === 'number')
        gc.temperature = req.temperature;
    if (typeof req.top_p === 'number')
        gc.topP = req.top_p;
    if (typeof req.top_k === 'number')
        gc.topK = req.top_k;
    if (req.logprobs === true) {
        gc.responseLogprobs = true;
        if (typeof req.top_logprobs === 'number' && req.top_logprobs > 0)
            gc.logprobs = req.top_logprobs;
    }
    if (req.stop !== undefined)
        gc.stopSequences = Array.isArray(req.stop) ? req.stop : [req.stop];
    if (typeof req.n === 'number' && req.n > 1)
        gc.candidateCount = req.n;
    if (typeof req.presence_penalty === 'number')
        gc.presencePenalty = req.presence_penalty;
    if (typeof req.frequency_penalty === 'number')
        gc.frequencyPenalty = req.frequency_penalty;
    if (typeof req.seed === 'number')
        gc.seed = req.seed;
    const rf = req.response_format;
    if (rf?.type === 'json_object' || rf?.type === 'json_schema') {
        gc.responseMimeType = 'application/json';
        if (rf.type === 'json_schema' && rf.json_schema?.schema)
            gc.responseSchema = cleanSchema(rf.json_schema.schema);
    }
    const effort = req.reasoning_effort;
    if (effort && effort in THINKING_BUDGET)
        gc.thinkingConfig = { thinkingBudget: THINKING_BUDGET[effort], includeThoughts: true };
    return gc;
}
function safetySettingsOf(configured) {
    return HARM_CATEGORIES.map((category) => ({
        category,
        // Civic integrity predates OFF on some model versions: BLOCK_NONE is the accepted "no filtering" there.
        threshold: configured[category] ?? configured.default ?? (category === 'HARM_CATEGORY_CIVIC_INTEGRITY' ? 'BLOCK_NONE' : 'OFF'),
    }));
}
//# sourceMappingURL=request.js.map