import { ignored, mapped, only, OPENAI_SERVICE_FIELDS, refused, textOnlyRules, type WirePolicy } from '../field-policy.js';

const text = textOnlyRules('Dify ');
const APP_PARAMETER = 'Dify 应用的模型参数在应用编排中设定，请求无法改变';

/** The canonical request's fields on Dify's chat-messages wire: one flattened query, images as files. */
export const DIFY_FIELDS: WirePolicy = {
  target: 'Dify',
  fields: {
    ...text.fields,
    model: ignored('Dify 的 API 密钥对应一个应用，由应用决定模型'),
    messages: mapped('query (SYSTEM:/USER:/ASSISTANT: 拼接) + files'),
    stream: mapped('response_mode'),
    user: mapped('user'),
    max_tokens: ignored(APP_PARAMETER),
    max_completion_tokens: ignored(APP_PARAMETER),
    temperature: ignored(APP_PARAMETER),
    top_p: ignored(APP_PARAMETER),
    ...OPENAI_SERVICE_FIELDS,
    stop: refused('Dify 没有 stop 参数'),
    presence_penalty: refused('Dify 没有 presence_penalty', only(0)),
    frequency_penalty: refused('Dify 没有 frequency_penalty', only(0)),
    response_format: refused('Dify 不支持结构化输出', only({ type: 'text' })),
    tools: refused('Dify 应用的工具在应用编排中设定，不接受请求中的工具'),
    tool_choice: refused('Dify 不接受请求中的工具', only('none', 'auto')),
    parallel_tool_calls: refused('Dify 不接受请求中的工具', only(true)),
    reasoning_effort: refused('此转换不支持推理强度'),
    web_search_options: refused('此转换不支持网页搜索'),
    functions: refused('Dify 不接受请求中的工具'),
    function_call: refused('Dify 不接受请求中的工具'),
  },
  parts: {
    ...text.parts,
    text: mapped('query'),
    image_url: mapped('files (data: URL 先上传为 local_file，http(s) 链接作为 remote_url)'),
  },
  tools: {},
  message: {
    ...text.message,
    name: ignored('Dify 没有发言者名字'),
  },
};
