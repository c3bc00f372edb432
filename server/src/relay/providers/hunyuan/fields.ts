import { emptyObject, ignored, mapped, only, OPENAI_SERVICE_FIELDS, refused, type WirePolicy } from '../field-policy.js';

/** The canonical request's fields on Hunyuan's ChatCompletions wire. */
export const HUNYUAN_FIELDS: WirePolicy = {
  target: '腾讯混元',
  fields: {
    model: mapped('Model'),
    messages: mapped('Messages'),
    stream: mapped('Stream'),
    temperature: mapped('Temperature'),
    top_p: mapped('TopP'),
    stop: mapped('Stop'),
    seed: mapped('Seed'),
    tools: mapped('Tools'),
    tool_choice: mapped('ToolChoice + CustomTool'),
    // Hunyuan has no cap on the answer's length to send; Claude clients must always send one.
    max_tokens: ignored('混元没有输出长度参数，由模型自身上限决定'),
    max_completion_tokens: ignored('混元没有输出长度参数，由模型自身上限决定'),
    user: ignored('混元没有终端用户标识'),
    ...OPENAI_SERVICE_FIELDS,
    n: refused('混元每次只生成一个回答', only(1)),
    presence_penalty: refused('混元没有 presence_penalty', only(0)),
    frequency_penalty: refused('混元没有 frequency_penalty', only(0)),
    response_format: refused('混元不支持结构化输出', only({ type: 'text' })),
    logprobs: refused('此转换不返回 logprobs', only(false)),
    top_logprobs: refused('此转换不返回 logprobs', only(0)),
    parallel_tool_calls: refused('混元无法禁止并行工具调用', only(true)),
    reasoning_effort: refused('此转换不支持推理强度'),
    logit_bias: refused('混元没有 logit_bias', emptyObject),
    top_k: refused('混元没有 top_k'),
    modalities: refused('混元只输出文本', only(['text'])),
    audio: refused('混元不输出音频'),
    verbosity: ignored('混元没有 verbosity（回答详略的提示）'),
    web_search_options: refused('此转换不支持网页搜索'),
    functions: refused('请改用 tools'),
    function_call: refused('请改用 tool_choice'),
  },
  parts: {
    text: mapped('Contents[].Text'),
    image_url: mapped('Contents[].ImageUrl (user turns, vision models)'),
    refusal: ignored('上一轮回答中的拒答文本'),
    input_audio: refused('混元不接受音频输入'),
    file: refused('混元不接受文件输入'),
  },
  tools: {
    function: mapped('Tools'),
  },
  message: {
    name: ignored('混元没有发言者名字'),
    reasoning_content: ignored('混元不接收历史中的思考'),
    reasoning_signature: ignored('混元不接收历史中的思考'),
  },
};
