import { ignored, mapped, only, OPENAI_SERVICE_FIELDS, refused, textOnlyRules, type WirePolicy } from '../field-policy.js';

const TEXT_ONLY = textOnlyRules('v3 接口');
const NO_TOOLS = 'v3 接口不支持工具调用';

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
    ...TEXT_ONLY.fields,
    stop: refused('v3 接口没有停止序列'),
    presence_penalty: refused('v3 接口没有惩罚参数', only(0)),
    frequency_penalty: refused('v3 接口没有惩罚参数', only(0)),
    response_format: refused('v3 接口不支持结构化输出', only({ type: 'text' })),
    tools: refused(NO_TOOLS, (v) => Array.isArray(v) && v.length === 0),
    tool_choice: refused(NO_TOOLS, only('none', 'auto')),
    parallel_tool_calls: refused(NO_TOOLS),
    reasoning_effort: refused('v3 接口不支持推理强度'),
    web_search_options: refused('v3 接口没有网页搜索'),
    functions: refused(NO_TOOLS),
    function_call: refused(NO_TOOLS),
  },
  parts: {
    ...TEXT_ONLY.parts,
    text: mapped('content'),
    image_url: refused('v3 接口不接受图片，请使用 GLM-4V 渠道'),
  },
  tools: {
    function: refused(NO_TOOLS),
  },
  message: {
    ...TEXT_ONLY.message,
    name: ignored('v3 接口没有发言者名字'),
  },
};
