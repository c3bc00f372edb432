import { ignored, mapped, OPENAI_SERVICE_FIELDS, refused, textOnlyRules, type WirePolicy } from '../field-policy.js';

const text = textOnlyRules('知识库 ');
const LIBRARY_PARAMETER = '知识库问答的模型参数由 AI Proxy 知识库设定';

/** The canonical request's fields on AI Proxy's library ask wire: the last user question and the model. */
export const LIBRARY_FIELDS: WirePolicy = {
  target: 'AI Proxy 知识库',
  fields: {
    ...text.fields,
    model: mapped('model'),
    messages: mapped('query（最后一条用户消息；知识库按单个问题作答）'),
    stream: mapped('stream'),
    max_tokens: ignored(LIBRARY_PARAMETER),
    max_completion_tokens: ignored(LIBRARY_PARAMETER),
    temperature: ignored(LIBRARY_PARAMETER),
    top_p: ignored(LIBRARY_PARAMETER),
    user: ignored('知识库没有终端用户标识'),
    ...OPENAI_SERVICE_FIELDS,
    stop: refused('知识库没有 stop 参数'),
    presence_penalty: refused('知识库没有 presence_penalty'),
    frequency_penalty: refused('知识库没有 frequency_penalty'),
    response_format: refused('知识库不支持结构化输出'),
    tools: refused('知识库不支持工具调用'),
    tool_choice: refused('知识库不支持工具调用'),
    parallel_tool_calls: refused('知识库不支持工具调用'),
    reasoning_effort: refused('此转换不支持推理强度'),
    web_search_options: refused('此转换不支持网页搜索'),
    functions: refused('知识库不支持工具调用'),
    function_call: refused('知识库不支持工具调用'),
  },
  parts: {
    ...text.parts,
    text: mapped('query'),
    image_url: refused('知识库只接受文本问题'),
  },
  tools: {},
  message: {
    ...text.message,
    name: ignored('知识库没有发言者名字'),
  },
};
