import { RelayError } from '../../errors.js';
import type { ChatMessage, ChatRequest, ContentPart, ToolChoice } from '../../formats/openai/chat.js';
import { parseToolInput } from '../../formats/claude/from-chat.js';
import { applyResponseFormat, hasOutputFormat } from './structured-output.js';
import type {
  ClaudeContentBlock,
  ClaudeDocumentBlock,
  ClaudeImageBlock,
  ClaudeMessage,
  ClaudeRequest,
  ClaudeTextBlock,
  ClaudeToolChoice,
} from '../../formats/claude/types.js';

export interface ClaudeRequestOptions {
  /** max_tokens when the client sets none: by exact model name, else `default`, else 8192. */
  defaultMaxTokens: Readonly<Record<string, number>>;
  /** The target offers structured outputs (output_config.format, strict tools) for this model; by its name when unset. */
  outputFormat?: boolean;
  /** Where a field asked for but not sent is named (X-Switchyard-Dropped). */
  dropped?: string[];
}

const FALLBACK_MAX_TOKENS = 8192;
/** Anthropic's smallest accepted thinking budget. */
const MIN_BUDGET = 1024;
const BUDGET_BY_EFFORT = { low: 2048, medium: 8192, high: 24576 } as const;
const THINKING_SUFFIX = '-thinking';
/** Claude rejects a conversation that opens with the assistant, and empty text blocks. */
const OPENING_USER_TEXT = '...';

/** A ChatRequest as Claude's Messages request (any client through a Claude channel). */
export function chatToClaudeRequest(req: ChatRequest, upstreamModel: string, opts: ClaudeRequestOptions): ClaudeRequest {
  const thinkingSuffix = upstreamModel.endsWith(THINKING_SUFFIX);
  const model = thinkingSuffix ? upstreamModel.slice(0, -THINKING_SUFFIX.length) : upstreamModel;
  const maxTokens = req.max_completion_tokens ?? req.max_tokens ?? defaultMaxTokens(model, opts);

  const system: string[] = [];
  const turns: Turn[] = [];
  for (const m of req.messages ?? []) {
    if (m.role === 'system' || m.role === 'developer') {
      const text = plainText(m.content);
      if (text) system.push(text);
      continue;
    }
    const turn = toTurn(m);
    if (turn.content.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  if (turns.length > 0 && turns[0].role !== 'user') turns.unshift({ role: 'user', content: [{ type: 'text', text: OPENING_USER_TEXT }] });
  for (const t of turns) if (t.role === 'user') t.content = toolResultsFirst(t.content);

  const out: ClaudeRequest = { model, messages: turns, max_tokens: maxTokens };
  if (system.length > 0) out.system = system.join('\n');
  if (req.stream) out.stream = true;
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (stop && stop.length > 0) out.stop_sequences = stop;
  if (typeof req.user === 'string' && req.user) out.metadata = { user_id: req.user };

  const native = opts.outputFormat ?? hasOutputFormat(model);
  const tools = (req.tools ?? []).filter((t) => t.type === 'function');
  if (tools.length > 0) {
    out.tools = tools.map((t) => ({
      name: t.function.name,
      ...(t.function.description ? { description: t.function.description } : {}),
      input_schema: t.function.parameters ?? { type: 'object', properties: {} },
      // Strict tools exist where structured outputs do; elsewhere the schema still guides the model.
      ...(t.function.strict === true && native ? { strict: true } : {}),
    }));
  }
  const choice = toolChoice(req.tool_choice, req.parallel_tool_calls === false);
  if (choice && tools.length > 0) out.tool_choice = choice;
  applyResponseFormat(out, req, native);

  const effort = req.reasoning_effort ?? (thinkingSuffix ? 'medium' : undefined);
  // Claude refuses thinking together with a forced tool choice; the forced tool wins.
  const forced = out.tool_choice?.type === 'any' || out.tool_choice?.type === 'tool';
  let budget = effort && !forced ? Math.min(BUDGET_BY_EFFORT[effort], Math.floor(maxTokens * 0.8)) : 0;
  if (budget >= MIN_BUDGET && continuesToolUseUnsigned(turns)) {
    // With thinking on, Claude refuses a tool loop whose last assistant turn does not open with the thinking block it
    // signed, and a converted history without the signature has none: this turn is answered without thinking.
    budget = 0;
    opts.dropped?.push('reasoning_effort');
  }
  if (budget >= MIN_BUDGET) {
    out.thinking = { type: 'enabled', budget_tokens: budget };
    // With thinking on, Claude only accepts the default temperature and top_p of 0.95 or more.
    if (typeof req.top_p === 'number' && req.top_p >= 0.95) out.top_p = req.top_p;
  } else {
    if (typeof req.temperature === 'number') {
      // Newer Claude models reject temperature and top_p together; temperature is the one clients mean.
      out.temperature = req.temperature;
    } else if (typeof req.top_p === 'number') {
      out.top_p = req.top_p;
    }
    // Like temperature, top_k is refused together with thinking.
    if (typeof req.top_k === 'number') out.top_k = req.top_k;
  }
  return out;
}

/**
 * The conversation goes on from tool results whose calls came with no signed thinking: its last assistant turn
 * called tools without opening with a thinking block, and their results follow it.
 */
function continuesToolUseUnsigned(turns: Turn[]): boolean {
  for (let i = turns.length - 1; i >= 0; i--) {
    if (turns[i].role !== 'assistant') continue;
    const content = turns[i].content;
    if (content[0]?.type === 'thinking') return false;
    return content.some((b) => b.type === 'tool_use') && turns.slice(i + 1).some((t) => t.content.some((b) => b.type === 'tool_result'));
  }
  return false;
}

function defaultMaxTokens(model: string, opts: ClaudeRequestOptions): number {
  return opts.defaultMaxTokens[model] ?? opts.defaultMaxTokens.default ?? FALLBACK_MAX_TOKENS;
}

function plainText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p): p is { type: 'text'; text: string } => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

type Turn = ClaudeMessage & { content: ClaudeContentBlock[] };

function toTurn(m: ChatMessage): Turn {
  if (m.role === 'tool') {
    const text = plainText(m.content);
    return {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: m.tool_call_id ?? '', ...(text ? { content: text } : {}) }],
    };
  }
  if (m.role === 'assistant') {
    // Thinking goes back only with the signature Claude issued for it (a sealed Responses reasoning item carries
    // one, sealed-reasoning.ts); Claude refuses thinking blocks without.
    const content: ClaudeContentBlock[] = [];
    if (typeof m.reasoning_signature === 'string' && m.reasoning_signature) {
      content.push({ type: 'thinking', thinking: typeof m.reasoning_content === 'string' ? m.reasoning_content : '', signature: m.reasoning_signature });
    }
    content.push(...blocks(m.content));
    for (const call of m.tool_calls ?? []) {
      content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) });
    }
    return { role: 'assistant', content };
  }
  return { role: 'user', content: blocks(m.content) };
}

function blocks(content: ChatMessage['content']): Array<ClaudeTextBlock | ClaudeImageBlock | ClaudeDocumentBlock> {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const out: Array<ClaudeTextBlock | ClaudeImageBlock | ClaudeDocumentBlock> = [];
  for (const p of content ?? []) {
    if (p.type === 'text' && typeof p.text === 'string' && p.text) out.push({ type: 'text', text: p.text });
    else if (p.type === 'refusal' && typeof p.refusal === 'string' && p.refusal) out.push({ type: 'text', text: p.refusal });
    else if (p.type === 'image_url') {
      const image = imageBlock(p as Extract<ContentPart, { type: 'image_url' }>);
      if (!image) throw unsupported('图片必须是 http(s) 链接或 base64 data URL');
      out.push(image);
    } else if (p.type === 'file') out.push(documentBlock(p.file as { file_data?: unknown; file_id?: unknown; filename?: unknown } | undefined));
  }
  return out;
}

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

/** A file part (base64 data URL) as a document block: PDFs as they are, plain text decoded. */
function documentBlock(file: { file_data?: unknown; file_id?: unknown; filename?: unknown } | undefined): ClaudeDocumentBlock {
  const data = typeof file?.file_data === 'string' ? DATA_URL.exec(file.file_data) : null;
  if (!data) throw unsupported('Claude 渠道的文件内容必须是 base64 data URL（不支持 file_id）');
  const title = typeof file?.filename === 'string' && file.filename ? { title: file.filename } : {};
  if (data[1] === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: data[2] }, ...title };
  if (data[1] === 'text/plain') return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(data[2], 'base64').toString('utf8') }, ...title };
  throw unsupported(`Claude 渠道不支持 ${data[1]} 类型的文件，只支持 PDF 与纯文本`);
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(p: { image_url: { url: string } | string }): ClaudeImageBlock | null {
  const url = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url;
  if (typeof url !== 'string') return null;
  const data = DATA_URL.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  if (/^https?:\/\//.test(url)) return { type: 'image', source: { type: 'url', url } };
  return null;
}

/** Claude wants a user turn's tool_result blocks before any other content. */
function toolResultsFirst(content: ClaudeContentBlock[]): ClaudeContentBlock[] {
  const results = content.filter((b) => b.type === 'tool_result');
  if (results.length === 0 || results.length === content.length) return content;
  return [...results, ...content.filter((b) => b.type !== 'tool_result')];
}

function toolChoice(c: ToolChoice | undefined, noParallel: boolean): ClaudeToolChoice | undefined {
  const parallel = noParallel ? { disable_parallel_tool_use: true } : {};
  if (c === undefined) return noParallel ? { type: 'auto', ...parallel } : undefined;
  if (c === 'none') return { type: 'none' };
  // `any` is how Mistral-style servers spell `required`.
  if (c === 'required' || (c as string) === 'any') return { type: 'any', ...parallel };
  if (c === 'auto') return { type: 'auto', ...parallel };
  if (typeof c === 'object' && c.type === 'function' && typeof c.function?.name === 'string') return { type: 'tool', name: c.function.name, ...parallel };
  const kind = typeof c === 'object' ? String((c as { type?: unknown }).type) : c;
  throw new RelayError(400, `Claude 渠道不支持 tool_choice：${kind}`, 'unsupported_tool_choice', 'invalid_request_error');
}
