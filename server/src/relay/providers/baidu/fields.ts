import { ignored, mapped, only, OPENAI_SERVICE_FIELDS, refused, textOnlyRules, type WirePolicy } from '../field-policy.js';

const TEXT_ONLY = textOnlyRules('文心');

/** The canonical request's fields on Qianfan v1's ERNIE chat body. */
export const BAIDU_FIELDS: WirePolicy = {
  target: '百度文心',
  fields: {
    model: mapped('URL path (endpoint)'),
    messages: mapped('messages + system'),
    stream: mapped('stream'),
    max_tokens: mapped('max_output_tokens'),
    max_completion_tokens: mapped('max_output_tokens'),
    temperature: mapped('temperature (0 → 0.01)'),
    top_p: mapped('top_p'),
    stop: mapped('stop'),
    user: mapped('user_id'),
    tools: mapped('functions'),
    tool_choice: mapped('tool_choice / functions'),
    response_format: refused('文心只支持 json_object', (v) => ['text', 'json_object'].includes(String((v as { type?: unknown })?.type))),
    parallel_tool_calls: ignored('文心每轮最多调用一个函数'),
    ...OPENAI_SERVICE_FIELDS,
    ...TEXT_ONLY.fields,
    presence_penalty: refused('文心只有 penalty_score（可在渠道参数覆盖中设置）', only(0)),
    frequency_penalty: refused('文心只有 penalty_score（可在渠道参数覆盖中设置）', only(0)),
    reasoning_effort: refused('文心 v1 接口不支持推理强度'),
    web_search_options: refused('请改用渠道参数覆盖中的 disable_search'),
    functions: refused('请改用 tools'),
    function_call: refused('请改用 tool_choice'),
  },
  parts: {
    ...TEXT_ONLY.parts,
    text: mapped('content'),
    image_url: refused('文心 v1 接口不接受图片'),
  },
  tools: {
    function: mapped('functions'),
  },
  message: {
    ...TEXT_ONLY.message,
    name: ignored('文心只为函数结果记名字'),
  },
};
