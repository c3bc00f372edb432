import { RelayError } from '../../errors.js';
import { COMPACTION_REQUEST, compactedSummary, isCompactionRequest, summaryMessage } from './compaction.js';
import { RESPONSES_CLIENT_FIELDS } from './fields.js';
import { isMintedId } from './ids.js';
import { unsealReasoning, type SealedReasoning } from './sealed-reasoning.js';
import { CUSTOM_INPUT, customParameters, flatName, offeredTools } from './tool-names.js';
import type { ChatMessage, ChatRequest, ContentPart, ToolCall, ToolChoice, ToolDefinition } from '../openai/chat.js';

/*
 * A Responses request as the canonical ChatRequest, for a Responses client served by a chat-only upstream.
 * References to responses the gateway keeps were resolved before (turn.ts); a previous_response_id or item_reference
 * still here names nothing the gateway has for this caller, and is refused as OpenAI refuses an unknown one (400 /
 * 404). Conversations and prompt templates are refused with a 400; hints and OpenAI-hosted tools nobody forces are
 * left out and named in `dropped`. Custom and namespaced tools are offered as functions (tool-names.ts).
 */

type Obj = Record<string, unknown>;

const invalid = (message: string, code = 'invalid_request_error') => new RelayError(400, message, code, 'invalid_request_error');
const unsupported = (message: string) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** A reference the gateway could not resolve: one it made that is gone, or one another service (OpenAI) keeps. */
function unknownReference(field: 'previous_response_id' | 'item_reference', id: unknown): RelayError {
  const what = field === 'previous_response_id' ? '响应' : '条目';
  const named = `${field} 指向的${what} '${String(id)}'`;
  if (isMintedId(id)) {
    const message = `${named} 不存在：可能已过期、已被删除，或创建时 store 为 false`;
    return field === 'previous_response_id'
      ? new RelayError(400, message, 'previous_response_not_found', 'invalid_request_error')
      : new RelayError(404, message, 'item_not_found', 'invalid_request_error');
  }
  const message = `${named} 不在本网关保存：由 OpenAI 渠道保存的${what}只能在 OpenAI 渠道上使用，请在 input 中携带完整对话`;
  return field === 'previous_response_id'
    ? new RelayError(400, message, 'previous_response_not_found', 'invalid_request_error')
    : new RelayError(404, message, 'item_not_found', 'invalid_request_error');
}

/** Fields that need state this gateway does not keep. */
const STATEFUL: Array<[string, string]> = [
  ['conversation', '本渠道不保存对话，不支持 conversation 参数，请在 input 中携带完整对话'],
  ['prompt', '本渠道不支持 prompt 模板参数，请直接在 input 中给出内容'],
];

/**
 * Tools OpenAI runs on its side (or the client runs from OpenAI's hints). A chat-only upstream cannot run them, so
 * they are left out of the offer — the model answers without them — unless tool_choice forces one (then refused).
 */
const HOSTED_TOOLS = new Set([
  'web_search',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'tool_search',
  'file_search',
  'code_interpreter',
  'image_generation',
  'computer_use_preview',
  'local_shell',
  'mcp',
]);

/** The top-level fields the field table names (text.format is `text`'s). */
const NAMED = new Set(Object.keys(RESPONSES_CLIENT_FIELDS).map((k) => k.split(/[.[ ]/)[0]));

/** The hint fields a request carries (ignored in RESPONSES_CLIENT_FIELDS), and any field the table does not name. */
function hintFields(req: Obj): string[] {
  const found: string[] = [];
  for (const key in req) {
    if (!present(req[key])) continue;
    if (key === 'include') {
      if (!Array.isArray(req.include) || req.include.some((v) => v !== 'reasoning.encrypted_content')) found.push(key);
      continue;
    }
    const rule = RESPONSES_CLIENT_FIELDS[key];
    if (rule ? 'kind' in rule && rule.kind === 'ignored' : !NAMED.has(key)) found.push(key);
  }
  return found;
}

/** A Responses request in the canonical shape; the hint fields and hosted tools it leaves out are added to `dropped`. */
export function responsesToChat(req: Obj, dropped?: string[]): ChatRequest {
  if (typeof req.model !== 'string' || !req.model) throw invalid('缺少必填字段 model', 'missing_required_parameter');
  if (present(req.previous_response_id)) throw unknownReference('previous_response_id', req.previous_response_id);
  for (const [field, message] of STATEFUL) if (present(req[field])) throw unsupported(message);
  if (req.background === true) throw unsupported('本渠道不支持 background 后台模式');
  if (typeof req.top_logprobs === 'number' && req.top_logprobs > 0) throw unsupported('本渠道转换后的回答不带 logprobs，不支持 top_logprobs');

  const messages: ChatMessage[] = [];
  if (present(req.instructions)) {
    if (typeof req.instructions !== 'string') throw invalid('instructions 必须是字符串', 'invalid_type');
    if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  }
  if (!present(req.input)) throw invalid('缺少必填字段 input', 'missing_required_parameter');
  if (typeof req.input === 'string') messages.push({ role: 'user', content: req.input });
  else if (Array.isArray(req.input)) messages.push(...inputMessages(req.input));
  else throw invalid('input 必须是字符串或数组', 'invalid_type');

  const out: ChatRequest = { model: req.model, messages };
  if (present(req.max_output_tokens)) {
    if (!Number.isInteger(req.max_output_tokens) || (req.max_output_tokens as number) <= 0) {
      throw invalid('max_output_tokens 必须是正整数', 'invalid_type');
    }
    out.max_tokens = req.max_output_tokens as number;
  }
  const temperature = optionalNumber(req, 'temperature');
  if (temperature !== undefined) out.temperature = temperature;
  const topP = optionalNumber(req, 'top_p');
  if (topP !== undefined) out.top_p = topP;
  if (present(req.stream)) {
    if (typeof req.stream !== 'boolean') throw invalid('stream 必须是布尔值', 'invalid_type');
    if (req.stream) {
      out.stream = true;
      // response.completed carries usage, so the upstream must be asked for it.
      out.stream_options = { include_usage: true };
    }
  }
  const left: string[] = hintFields(req);
  if (present(req.tools) && !Array.isArray(req.tools)) throw invalid('tools 必须是数组', 'invalid_type');
  // A compaction asks for a summary in words: the tools are not offered (the history may still hold their calls).
  if (isCompactionRequest(req)) {
    if (present(req.tools) || present(req.tool_choice)) left.push('tools');
  } else applyTools(out, offeredTools(req), req.tool_choice, left);
  // Without tools it asks for nothing (Codex sends it on every turn).
  if (typeof req.parallel_tool_calls === 'boolean') {
    if (out.tools) out.parallel_tool_calls = req.parallel_tool_calls;
    else left.push('parallel_tool_calls');
  }
  if (dropped) dropped.push(...left);
  const effort = reasoningEffort(req.reasoning);
  if (effort) out.reasoning_effort = effort;
  applyText(out, req.text);
  if (typeof req.user === 'string' && req.user) out.user = req.user;
  if (typeof req.prompt_cache_key === 'string' && req.prompt_cache_key) out.prompt_cache_key = req.prompt_cache_key;
  return out;
}

function optionalNumber(req: Obj, field: string): number | undefined {
  const v = req[field];
  if (!present(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`${field} 必须是数字`, 'invalid_type');
  return v;
}

/**
 * The input items as chat messages. function_call items join the assistant turn before them (one assistant message
 * with tool_calls, as chat wants it); reasoning items become reasoning_content of the assistant turn that follows
 * and are dropped when none follows — one that carries thinking this gateway sealed (sealed-reasoning.ts) gives that
 * turn its exact thinking and the upstream's signature instead; images returned by a tool cannot ride on a tool
 * message, so they follow the run of tool messages as one user message.
 */
function inputMessages(items: unknown[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let reasoning = '';
  let sealed: SealedReasoning[] = [];
  let assistant: ChatMessage | null = null;
  let toolImages: ContentPart[] = [];

  const flushToolImages = () => {
    if (toolImages.length > 0) messages.push({ role: 'user', content: toolImages });
    toolImages = [];
  };
  const takeReasoning = (msg: ChatMessage) => {
    // A signature holds for its own text: with more than one, the thinking goes on as words only.
    if (sealed.length === 1 && msg.reasoning_signature === undefined) {
      msg.reasoning_content = sealed[0].text;
      msg.reasoning_signature = sealed[0].signature;
    } else if (reasoning) msg.reasoning_content = (msg.reasoning_content ?? '') + reasoning;
    reasoning = '';
    sealed = [];
  };
  const forgetReasoning = () => {
    reasoning = '';
    sealed = [];
  };

  for (const raw of items) {
    if (!isObj(raw)) throw invalid('input 数组中的条目必须是对象', 'invalid_type');
    const type = raw.type ?? 'message';
    if (type !== 'function_call_output') flushToolImages();
    switch (type) {
      case 'message': {
        const msg = messageOf(raw);
        if (msg.role === 'assistant') {
          takeReasoning(msg);
          assistant = msg;
        } else {
          forgetReasoning();
          assistant = null;
        }
        messages.push(msg);
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const call = toolCallOf(raw);
        if (!assistant) {
          assistant = { role: 'assistant', content: null };
          messages.push(assistant);
        }
        takeReasoning(assistant);
        (assistant.tool_calls ??= []).push(call);
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        if (typeof raw.call_id !== 'string' || !raw.call_id) throw invalid(`${type} 缺少 call_id`, 'missing_required_parameter');
        const output = toolOutput(raw.output);
        messages.push({ role: 'tool', tool_call_id: raw.call_id, content: output.text });
        toolImages.push(...output.media);
        forgetReasoning();
        assistant = null;
        break;
      }
      case 'reasoning': {
        reasoning += reasoningText(raw);
        const thought = unsealReasoning(raw.encrypted_content);
        if (thought) sealed.push(thought);
        break;
      }
      // Their tools join the offer (applyTools); a client-run tool search has nothing to say to a model that is
      // offered every tool at once.
      case 'additional_tools':
      case 'tool_search_call':
      case 'tool_search_output':
        break;
      case 'compaction_trigger':
        messages.push({ role: 'user', content: COMPACTION_REQUEST });
        break;
      case 'compaction': {
        const summary = compactedSummary(raw);
        if (summary === null) throw unsupported('compaction 条目不是本网关生成的（它只能发回生成它的 OpenAI 渠道），本渠道无法读取');
        messages.push({ role: 'user', content: summaryMessage(summary) });
        break;
      }
      case 'item_reference':
        throw unknownReference('item_reference', raw.id);
      default:
        throw unsupported(`本渠道不支持 input 条目类型 ${String(type)}，仅支持消息、function_call、custom_tool_call、它们的输出与 reasoning`);
    }
  }
  flushToolImages();
  return messages;
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function messageOf(item: Obj): ChatMessage {
  const role = item.role;
  if (typeof role !== 'string' || !ROLES.has(role)) throw invalid('消息的 role 必须是 user、assistant、system 或 developer', 'invalid_value');
  const content = item.content;
  if (typeof content === 'string') return { role: role as ChatMessage['role'], content };
  if (!Array.isArray(content)) throw invalid('消息的 content 必须是字符串或数组', 'invalid_type');
  const parts = content.map(partOf);
  if (role === 'assistant') return { role: 'assistant', content: textOnly(parts, '') };
  if (role === 'system' || role === 'developer') return { role, content: textOnly(parts, '\n') };
  return { role: 'user', content: simplify(parts) };
}

function partOf(raw: unknown): ContentPart {
  if (!isObj(raw)) throw invalid('content 数组中的条目必须是对象', 'invalid_type');
  switch (raw.type) {
    case 'input_text':
    case 'output_text':
      if (typeof raw.text !== 'string') throw invalid(`${raw.type} 缺少 text`, 'missing_required_parameter');
      return { type: 'text', text: raw.text };
    case 'refusal':
      return { type: 'text', text: typeof raw.refusal === 'string' ? raw.refusal : '' };
    case 'input_image': {
      if (typeof raw.image_url !== 'string' || !raw.image_url) {
        throw unsupported('本渠道不支持以 file_id 引用图片，请在 image_url 中给出链接或 data URL');
      }
      const detail = raw.detail === 'low' || raw.detail === 'high' || raw.detail === 'auto' ? raw.detail : undefined;
      return { type: 'image_url', image_url: detail ? { url: raw.image_url, detail } : { url: raw.image_url } };
    }
    case 'input_file': {
      if (typeof raw.file_url === 'string' && !raw.file_data) throw unsupported('本渠道不支持 file_url，请改用 file_data（base64）');
      const file: Obj = {};
      if (typeof raw.filename === 'string') file.filename = raw.filename;
      if (typeof raw.file_data === 'string') file.file_data = raw.file_data;
      if (typeof raw.file_id === 'string') file.file_id = raw.file_id;
      if (!file.file_data && !file.file_id) throw invalid('input_file 需要 file_data 或 file_id', 'missing_required_parameter');
      return { type: 'file', file };
    }
    default:
      throw unsupported(`本渠道不支持内容类型 ${String(raw.type)}`);
  }
}

const isText = (p: ContentPart): p is { type: 'text'; text: string } => p.type === 'text';

function textOnly(parts: ContentPart[], separator: string): string {
  return parts
    .filter(isText)
    .map((p) => p.text)
    .join(separator);
}

/** Text-only content becomes a plain string: many OpenAI-compatible servers reject part arrays. */
function simplify(parts: ContentPart[]): string | ContentPart[] {
  return parts.every(isText) ? textOnly(parts, '\n') : parts;
}

/** A function or custom tool call as a chat tool call, named as its tool was offered (tool-names.ts). */
function toolCallOf(item: Obj): ToolCall {
  const type = item.type as string;
  if (typeof item.call_id !== 'string' || !item.call_id) throw invalid(`${type} 缺少 call_id`, 'missing_required_parameter');
  if (typeof item.name !== 'string' || !item.name) throw invalid(`${type} 缺少 name`, 'missing_required_parameter');
  const namespace = typeof item.namespace === 'string' && item.namespace ? item.namespace : undefined;
  let args: string;
  if (type === 'custom_tool_call') {
    if (typeof item.input !== 'string') throw invalid('custom_tool_call 缺少 input', 'missing_required_parameter');
    args = JSON.stringify({ [CUSTOM_INPUT]: item.input });
  } else args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
  return { id: item.call_id, type: 'function', function: { name: flatName(item.name, namespace), arguments: args } };
}

function toolOutput(output: unknown): { text: string; media: ContentPart[] } {
  if (typeof output === 'string') return { text: output, media: [] };
  if (!Array.isArray(output)) throw invalid('function_call_output 的 output 必须是字符串或数组', 'invalid_type');
  const parts = output.map(partOf);
  return { text: textOnly(parts, '\n'), media: parts.filter((p) => !isText(p)) };
}

/** The thought text of a reasoning item: its full reasoning_text when given, else its summary. */
function reasoningText(item: Obj): string {
  const texts = (list: unknown) =>
    Array.isArray(list)
      ? list
          .filter((p): p is { text: string } => isObj(p) && typeof p.text === 'string')
          .map((p) => p.text)
          .join('\n')
      : '';
  return texts(item.content) || texts(item.summary);
}

function applyTools(out: ChatRequest, rawTools: unknown[], rawChoice: unknown, dropped: string[]): void {
  const drop = (name: string) => {
    if (!dropped.includes(name)) dropped.push(name);
  };
  let tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  const offer = (tool: ToolDefinition) => {
    // A tool a client-run search found is offered already (every tool is, deferred or not).
    if (seen.has(tool.function.name)) return;
    seen.add(tool.function.name);
    tools.push(tool);
  };
  for (const raw of rawTools) {
    const type = isObj(raw) ? raw.type : undefined;
    if (typeof type === 'string' && HOSTED_TOOLS.has(type)) {
      if (isObj(rawChoice) && rawChoice.type === type) throw unsupported(`本渠道无法运行内置工具 ${type}，tool_choice 却要求使用它`);
      drop(`tools[].type=${type}`);
      continue;
    }
    if (type === 'namespace' && isObj(raw)) {
      if (typeof raw.name !== 'string' || !raw.name) throw invalid('namespace 工具缺少 name', 'missing_required_parameter');
      if (!Array.isArray(raw.tools)) throw invalid('namespace 工具的 tools 必须是数组', 'invalid_type');
      for (const inner of raw.tools as unknown[]) offer(toolOf(inner, raw.name, drop));
    } else offer(toolOf(raw, undefined, drop));
  }
  if (present(rawChoice)) {
    if (typeof rawChoice === 'string') {
      if (rawChoice !== 'none' && rawChoice !== 'auto' && rawChoice !== 'required') throw invalid('tool_choice 只能是 none、auto 或 required', 'invalid_value');
      out.tool_choice = rawChoice;
    } else if (isObj(rawChoice) && (rawChoice.type === 'function' || rawChoice.type === 'custom')) {
      if (typeof rawChoice.name !== 'string' || !rawChoice.name) throw invalid('tool_choice 缺少 name', 'missing_required_parameter');
      const namespace = typeof rawChoice.namespace === 'string' && rawChoice.namespace ? rawChoice.namespace : undefined;
      out.tool_choice = { type: 'function', function: { name: flatName(rawChoice.name, namespace) } } satisfies ToolChoice;
    } else if (isObj(rawChoice) && rawChoice.type === 'allowed_tools') {
      // Chat has no allowed-tools list: offer only those tools, with the same mode.
      const allowed = Array.isArray(rawChoice.tools) ? rawChoice.tools : [];
      const names = new Set<string>();
      for (const t of allowed) {
        if (!isObj(t) || (t.type !== 'function' && t.type !== 'custom') || typeof t.name !== 'string') throw unsupported('allowed_tools 中只支持 function 与 custom 类型的工具');
        names.add(flatName(t.name, typeof t.namespace === 'string' && t.namespace ? t.namespace : undefined));
      }
      tools = tools.filter((t) => names.has(t.function.name));
      out.tool_choice = rawChoice.mode === 'required' ? 'required' : 'auto';
    } else {
      const type = isObj(rawChoice) ? String(rawChoice.type) : typeof rawChoice;
      throw unsupported(`本渠道不支持 tool_choice 类型 ${type}，仅支持 function 工具`);
    }
  }
  if (tools.length > 0) out.tools = tools;
}

/** A function or custom tool as a chat function (a custom one takes its input as one string argument). */
function toolOf(raw: unknown, namespace: string | undefined, drop: (name: string) => void): ToolDefinition {
  if (!isObj(raw)) throw invalid('tools 数组中的条目必须是对象', 'invalid_type');
  if (raw.type !== 'function' && raw.type !== 'custom') {
    throw unsupported(`本渠道不支持内置工具 ${String(raw.type)}（如 web_search、file_search、computer_use），仅支持 function 与 custom 类型的工具`);
  }
  if (typeof raw.name !== 'string' || !raw.name) throw invalid(`${raw.type} 工具缺少 name`, 'missing_required_parameter');
  // Offered at once: the tool search that would load it later is not offered upstream.
  if (raw.defer_loading === true) drop('tools[].defer_loading');
  const fn: ToolDefinition['function'] = { name: flatName(raw.name, namespace) };
  if (typeof raw.description === 'string') fn.description = raw.description;
  if (raw.type === 'custom') {
    fn.parameters = customParameters(raw.format);
    return { type: 'function', function: fn };
  }
  if (isObj(raw.parameters)) fn.parameters = raw.parameters;
  if (typeof raw.strict === 'boolean') fn.strict = raw.strict;
  return { type: 'function', function: fn };
}

/**
 * Responses effort levels folded into chat's three: the lowest non-zero levels think lightly, the highest think
 * hard; `none` asks for no reasoning, which chat expresses by leaving reasoning_effort out.
 */
const EFFORT: Record<string, ChatRequest['reasoning_effort']> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

function reasoningEffort(reasoning: unknown): ChatRequest['reasoning_effort'] | undefined {
  if (!present(reasoning)) return undefined;
  if (!isObj(reasoning)) throw invalid('reasoning 必须是对象', 'invalid_type');
  return typeof reasoning.effort === 'string' ? EFFORT[reasoning.effort] : undefined;
}

function applyText(out: ChatRequest, text: unknown): void {
  if (!present(text)) return;
  if (!isObj(text)) throw invalid('text 必须是对象', 'invalid_type');
  if (typeof text.verbosity === 'string') out.verbosity = text.verbosity;
  const format = text.format;
  if (!present(format)) return;
  if (!isObj(format)) throw invalid('text.format 必须是对象', 'invalid_type');
  switch (format.type) {
    case 'text':
      return;
    case 'json_object':
      out.response_format = { type: 'json_object' };
      return;
    case 'json_schema': {
      if (typeof format.name !== 'string' || !format.name) throw invalid('text.format 缺少 name', 'missing_required_parameter');
      const schema: { name: string; schema?: Obj; description?: string; strict?: boolean } = { name: format.name };
      if (isObj(format.schema)) schema.schema = format.schema;
      if (typeof format.description === 'string') schema.description = format.description;
      if (typeof format.strict === 'boolean') schema.strict = format.strict;
      out.response_format = { type: 'json_schema', json_schema: schema };
      return;
    }
    default:
      throw unsupported(`本渠道不支持 text.format 类型 ${String(format.type)}`);
  }
}
