import { ignored, mapped, only, OPENAI_SERVICE_FIELDS, refused, textOnlyRules, type WirePolicy } from '../field-policy.js';

const TEXT_ONLY = textOnlyRules('星火');

/** The canonical request's fields on Spark's chat WebSocket frame. */
export const SPARK_FIELDS: WirePolicy = {
  target: '讯飞星火',
  fields: {
    model: mapped('parameter.chat.domain + endpoint path (version)'),
    messages: mapped('payload.message.text'),
    stream: mapped('(always streamed over the WebSocket; joined into one answer when not asked)'),
    max_tokens: mapped('parameter.chat.max_tokens'),
    max_completion_tokens: mapped('parameter.chat.max_tokens'),
    temperature: mapped('parameter.chat.temperature (0 → 0.01)'),
    user: mapped('header.uid (32 characters at most)'),
    tools: mapped('payload.functions.text (v3.1, v3.5, v4.0)'),
    tool_choice: refused('星火不能强制或指定调用函数', only('auto', 'none')),
    parallel_tool_calls: ignored('星火每轮最多调用一个函数'),
    ...OPENAI_SERVICE_FIELDS,
    ...TEXT_ONLY.fields,
    top_k: mapped('parameter.chat.top_k'),
    top_p: refused('星火没有 top_p（可改用 top_k）', only(1)),
    stop: refused('星火没有停止词'),
    presence_penalty: refused('星火的 WebSocket 接口没有 presence_penalty', only(0)),
    frequency_penalty: refused('星火的 WebSocket 接口没有 frequency_penalty', only(0)),
    response_format: refused('星火不支持结构化输出', only({ type: 'text' })),
    reasoning_effort: refused('此转换不支持推理强度'),
    web_search_options: refused('此转换不支持网页搜索'),
    functions: refused('请改用 tools'),
    function_call: refused('请改用 tool_choice'),
  },
  parts: {
    ...TEXT_ONLY.parts,
    text: mapped('content'),
    image_url: refused('星火对话接口不接受图片'),
  },
  tools: {
    function: mapped('payload.functions.text'),
  },
  message: {
    ...TEXT_ONLY.message,
    name: ignored('星火没有发言者名字'),
  },
};
