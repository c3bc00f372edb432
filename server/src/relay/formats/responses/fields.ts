import { ignored, refused } from '../../providers/field-policy.js';
import { to, type ClientFields } from '../client-fields.js';

/**
 * A Responses request's fields on their way to the canonical shape, as responsesToChat treats them (it checks them
 * itself; this table feeds the field table in the docs).
 */
export const RESPONSES_CLIENT_FIELDS: ClientFields = {
  model: to('model'),
  input: to('messages'),
  instructions: to('messages'),
  max_output_tokens: to('max_tokens'),
  temperature: to('temperature'),
  top_p: to('top_p'),
  stream: to('stream'),
  tools: to('tools'),
  'tools[] custom (free-form input), namespace; additional_tools items': to('tools'),
  tool_choice: to('tool_choice'),
  parallel_tool_calls: to('parallel_tool_calls'),
  'reasoning.effort': to('reasoning_effort'),
  'text.format': to('response_format'),
  'text.verbosity': to('verbosity'),
  user: to('user'),
  prompt_cache_key: to('prompt_cache_key'),
  store: ignored('只决定网关是否保存本次响应'),
  metadata: ignored('网关保存的标签'),
  'include[] reasoning.encrypted_content; input[] reasoning encrypted_content': to('msg:reasoning_content', 'msg:reasoning_signature'),
  'include[] other values': ignored('只能取回 OpenAI 侧的附加内容'),
  truncation: ignored('上下文由客户端完整携带'),
  service_tier: ignored('OpenAI 的服务档位'),
  safety_identifier: ignored('OpenAI 的滥用监测标识'),
  max_tool_calls: ignored('只限制内置工具，而内置工具不会转给上游'),
  client_metadata: ignored('客户端的标签，只供 OpenAI 侧使用'),
  'parallel_tool_calls (without tools)': ignored('没有工具时不要求任何东西'),
  top_logprobs: refused('转换后的回答不带 logprobs', (v) => v === 0),
  background: refused('后台模式只存在于 OpenAI', (v) => v === false),
  'tools[].defer_loading': ignored('每个工具都直接提供给上游，无需工具搜索'),
  'tools[] hosted (web_search, tool_search, file_search…)': ignored('内置工具只在 OpenAI 运行：不提供给上游模型；tool_choice 强制使用时拒绝'),
};
