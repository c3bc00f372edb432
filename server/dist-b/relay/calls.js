import { Response as UndiciResponse } from 'undici';
import { RelayError } from './errors.js';
import { audioPromptTokens, audioSeconds } from './audio-duration.js';
import { canonicalForCounting } from './formats/index.js';
import { openAIFieldError } from './formats/openai/errors.js';
import { openAIBodyCheck } from './formats/openai/schema.js';
/*
 * Turns a client's OpenAI-format request into a ClientCall: the body is parsed once, checked for what the mode
 * needs, and kept as raw bytes so an unchanged body is forwarded as it came.
 */
export const bad = (message, code = 'invalid_request_error') => new RelayError(400, message, code, 'invalid_request_error');
/** Model assumed when the client names none. */
const DEFAULT_MODEL = {
    moderations: 'text-moderation-stable',
    images: 'dall-e',
    speech: 'tts-1',
    transcriptions: 'whisper-1',
    translations: 'whisper-1',
};
/** The field each mode cannot do without. */
const REQUIRED = {
    chat: ['messages'],
    completions: ['prompt'],
    embeddings: ['input'],
    moderations: ['input'],
    images: ['prompt'],
    speech: ['input'],
    rerank: ['query', 'documents'],
};
function isMissing(v) {
    return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}
export function positiveInt(v) {
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : 0;
}
/** The body as a JSON object, or a 400 that says what is wrong with it. */
export function parseJsonObject(raw) {
    if (!raw || raw.length === 0)
        throw bad('请求体为空');
    let json;
    try {
        json = JSON.parse(raw.toString('utf8'));
    }
    catch {
        throw bad('请求体不是合法的 JSON');
    }
    if (!json || typeof json !== 'object' || Array.isArray(json))
        throw bad('请求体必须是 JSON 对象');
    return json;
}
export function parseJsonCall(mode, raw) {
    const body = parseJsonObject(raw);
    if (body.model !== undefined && typeof body.model !== 'string')
        throw bad('model 必须是字符串');
    const model = body.model?.trim() || DEFAULT_MODEL[mode] || '';
    if (!model)
        throw bad('未指定模型名称，模型名称不能为空', 'model_required');
    for (const field of REQUIRED[mode] ?? []) {
        if (isMissing(body[field]))
            throw bad(`缺少必填字段 ${field}`);
    }
    if (mode === 'chat' && !Array.isArray(body.messages))
        throw bad('messages 必须是数组');
    if (body.stream !== undefined && typeof body.stream !== 'boolean')
        throw bad('stream 必须是布尔值');
    const problem = openAIBodyCheck(mode)?.(body);
    if (problem)
        throw openAIFieldError(problem);
    const streamOptions = body.stream_options;
    return {
        format: 'openai',
        mode,
        model,
        stream: body.stream === true && (mode === 'chat' || mode === 'completions'),
        json: body,
        raw,
        clientWantsStreamUsage: streamOptions?.include_usage === true,
        maxTokens: Math.max(positiveInt(body.max_tokens), positiveInt(body.max_completion_tokens)),
    };
}
/** Audio uploads: multipart with a file and a model field; re-sent upstream as multipart. */
export async function parseMultipartCall(mode, raw, contentType) {
    if (!raw || raw.length === 0)
        throw bad('请求体为空');
    if (!contentType.toLowerCase().startsWith('multipart/form-data'))
        throw bad('请使用 multipart/form-data 上传文件');
    let form;
    try {
        form = await new UndiciResponse(raw, { headers: { 'content-type': contentType } }).formData();
    }
    catch {
        throw bad('无法解析 multipart 请求体');
    }
    const file = form.get('file');
    if (!file)
        throw bad('缺少必填字段 file');
    const model = String(form.get('model') ?? '').trim() || DEFAULT_MODEL[mode] || '';
    const seconds = typeof file === 'string' ? null : await audioSeconds(file);
    return { format: 'openai', mode, model, stream: false, form, clientWantsStreamUsage: false, maxTokens: 0, ...(seconds === null ? {} : { audioSeconds: seconds }) };
}
const TEXT_CHARS_PER_TOKEN = 3;
const IMAGE_TOKENS = 765;
function textLength(v) {
    if (typeof v === 'string')
        return v.length;
    if (Array.isArray(v)) {
        let n = 0;
        for (const part of v) {
            if (typeof part === 'string')
                n += part.length;
            else if (part && typeof part === 'object') {
                const p = part;
                if (typeof p.text === 'string')
                    n += p.text.length;
                else if (p.type === 'image_url')
                    n += IMAGE_TOKENS * TEXT_CHARS_PER_TOKEN;
            }
        }
        return n;
    }
    return 0;
}
/**
 * A cheap upper-side estimate of prompt tokens for the reservation (no tokenizer on the hot path): characters / 3,
 * a flat amount per image. The charge itself uses the upstream's usage or an exact count.
 */
export function estimatePromptTokens(call) {
    if (call.audioSeconds !== undefined)
        return audioPromptTokens(call.audioSeconds);
    const b = call.format === 'openai' ? call.json : canonicalForCounting(call);
    if (!b)
        return Math.ceil((call.raw?.length ?? 0) / TEXT_CHARS_PER_TOKEN);
    let chars = 0;
    switch (call.mode) {
        case 'chat':
            for (const m of b.messages ?? [])
                chars += textLength(m?.content) + 12;
            if (Array.isArray(b.tools))
                chars += JSON.stringify(b.tools).length;
            break;
        case 'completions':
            chars = textLength(b.prompt);
            break;
        case 'embeddings':
        case 'moderations':
            chars = textLength(b.input);
            break;
        case 'rerank':
            chars = textLength(b.query) + textLength(b.documents);
            break;
        case 'speech':
            return typeof b.input === 'string' ? b.input.length : 0;
        default:
            return 0;
    }
    return Math.ceil(chars / TEXT_CHARS_PER_TOKEN);
}
//# sourceMappingURL=calls.js.map