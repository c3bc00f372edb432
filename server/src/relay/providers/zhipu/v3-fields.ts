import { emptyObject, ignored, mapped, only, OPENAI_SERVICE_FIELDS, refused, type WirePolicy } from '../field-policy.js';

/** The canonical request's fields on Zhipu's v3 model API (text turns, temperature and top_p: nothing else). */
export const ZHIPU_V3_FIELDS: WirePolicy = {
  target: '智谱 ChatGLM v3',
  fields: {
    model: mapped('URL path'),
    messages: mapped('prompt'),
    stream: mapped('sse-invoke'),
    temperature: mapped('temperature'),
    top_p: mapped('top_p'),
    // Every Claude client sends a bound and the channel test does too: the v3 API has none to pass it to.
    max_tokens: ignored('v3 接口没有回答长度参数，回答不会因此截断'),
    max_completion_tokens: ignored('v3 接口没有回答长度参数，回答不会因此截断'),
    user: ignored('v3 接口没有终端用户标识'),
    ...OPENAI_SERVICE_FIELDS,
    n: refused('v3 接口每次只生成一个回答', only(1)),
    stop: refused('v3 接口没有停止序列'),
    seed: refused('v3 接口没有 seed'),
    top_k: refused('v3 接口没有 top_k'),
    presence_penalty: refused('v3 接口没有惩罚参数', only(0)),
    frequency_penalty: refused('v3 接口没有惩罚参数', only(0)),
    response_format: refused('v3 接口不支持结构化输出', only({ type: 'text' })),
    tools: refused('v3 接口不支持工具调用', (v) => Array.isArray(v) && v.length === 0),
    tool_choice: refused('v3 接口不支持工具调用', only('none', 'auto')),
    parallel_tool_calls: refused('v3 接口不支持工具调用'),
    logprobs: refused('此转换不返回 logprobs', only(false)),
    top_logprobs: refused('此转换不返回 logprobs', only(0)),
    reasoning_effort: refused('v3 接口不支持推理强度'),
    logit_bias: refused('v3 接口没有 logit_bias', emptyObject),
    modalities: refused('v3 接口只输出文本', only(['text'])),
    audio: refused('v3 接口不输出音频'),
    verbosity: refused('v3 接口没有 verbosity', only('medium')),
    web_search_options: refused('v3 接口没有网页搜索'),
    functions: refused('v3 接口不支持工具调用'),
    function_call: refused('v3 接口不支持工具调用'),
  },
  parts: {
    text: mapped('content'),
    refusal: ignored('上一轮回答中的拒答文本'),
    image_url: refused('v3 接口不接受图片，请使用 GLM-4V 渠道'),
    input_audio: refused('v3 接口不接受音频输入'),
    file: refused('v3 接口不接受文件输入'),
  },
  tools: {
    function: refused('v3 接口不支持工具调用'),
  },
  message: {
    name: ignored('v3 接口没有发言者名字'),
    reasoning_content: ignored('v3 接口不接收历史中的思考'),
    reasoning_signature: ignored('v3 接口不接收历史中的思考'),
  },
};
