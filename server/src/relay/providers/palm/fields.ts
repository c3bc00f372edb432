import { ignored, mapped, OPENAI_SERVICE_FIELDS, refused, textOnlyRules, type WirePolicy } from '../field-policy.js';

const text = textOnlyRules('PaLM ');

/** The canonical request's fields on PaLM 2's generateMessage wire. */
export const PALM_FIELDS: WirePolicy = {
  target: 'PaLM',
  fields: {
    ...text.fields,
    model: mapped('URL models/{model}:generateMessage'),
    messages: mapped('prompt.messages (system → prompt.context)'),
    stream: mapped('整段回答转为流式分块发送（PaLM 没有流式接口）'),
    temperature: mapped('temperature'),
    top_p: mapped('topP'),
    top_k: mapped('topK'),
    // generateMessage has no cap on the answer's length; Claude clients always send one.
    max_tokens: ignored('PaLM 的 generateMessage 没有输出长度参数'),
    max_completion_tokens: ignored('PaLM 的 generateMessage 没有输出长度参数'),
    user: ignored('PaLM 没有终端用户标识'),
    ...OPENAI_SERVICE_FIELDS,
    stop: refused('PaLM 的 generateMessage 没有 stop 参数'),
    presence_penalty: refused('PaLM 没有 presence_penalty'),
    frequency_penalty: refused('PaLM 没有 frequency_penalty'),
    response_format: refused('PaLM 不支持结构化输出'),
    tools: refused('PaLM 不支持工具调用'),
    tool_choice: refused('PaLM 不支持工具调用'),
    parallel_tool_calls: refused('PaLM 不支持工具调用'),
    reasoning_effort: refused('此转换不支持推理强度'),
    web_search_options: refused('此转换不支持网页搜索'),
    functions: refused('PaLM 不支持工具调用'),
    function_call: refused('PaLM 不支持工具调用'),
  },
  parts: {
    ...text.parts,
    text: mapped('content'),
    image_url: refused('PaLM 只接受文本'),
  },
  tools: {},
  message: {
    ...text.message,
    name: ignored('PaLM 没有发言者名字'),
  },
};
