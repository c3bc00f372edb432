import type { ChatCompletion, ChatUsage } from '../openai/chat.js';
import { normalizeFinishReason } from '../openai/finish-reason.js';
import { compactionItem, isCompactionRequest } from './compaction.js';
import { itemId, responseId } from './ids.js';
import { sealReasoning, wantsSealedReasoning } from './sealed-reasoning.js';
import { customInput, toolOrigins, type ToolOrigin } from './tool-names.js';
import type {
  ItemStatus,
  ResponseObject,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesReasoningItem,
  ResponsesRefusal,
  ResponsesUsage,
} from './types.js';

export { ChatToResponsesStream } from './from-chat-stream.js';

type Obj = Record<string, unknown>;

/** Chat usage in the Responses shape; input_tokens, like prompt_tokens, includes cached tokens. */
export function responsesUsage(u: ChatUsage | null | undefined): ResponsesUsage | null {
  if (!u) return null;
  const input = u.prompt_tokens ?? 0;
  const output = u.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details?.cached_tokens ?? 0, cache_write_tokens: u.cache_creation_input_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.total_tokens || input + output,
  };
}

const orNull = <T>(v: unknown, check: (v: unknown) => v is T): T | null => (check(v) ? v : null);
const isNumber = (v: unknown): v is number => typeof v === 'number';
const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * A response in progress with the request's settings echoed back, as OpenAI does (the SDK and clients read tools,
 * text.format and tool_choice from the response). `store` and `previous_response_id` are echoed as the caller says:
 * store is true only when the gateway keeps the response (req.store === true).
 */
export function responseShell(req: Obj, model: string, id: string, createdAt: number): ResponseObject {
  const reasoning = (req.reasoning && typeof req.reasoning === 'object' ? req.reasoning : {}) as Obj;
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: req.instructions ?? null,
    max_output_tokens: orNull(req.max_output_tokens, isNumber),
    model,
    output: [],
    parallel_tool_calls: typeof req.parallel_tool_calls === 'boolean' ? req.parallel_tool_calls : true,
    previous_response_id: orNull(req.previous_response_id, isString),
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    store: req.store === true,
    temperature: typeof req.temperature === 'number' ? req.temperature : 1,
    text: req.text ?? { format: { type: 'text' } },
    tool_choice: req.tool_choice ?? 'auto',
    tools: Array.isArray(req.tools) ? req.tools : [],
    top_p: typeof req.top_p === 'number' ? req.top_p : 1,
    truncation: req.truncation ?? 'disabled',
    usage: null,
    user: orNull(req.user, isString),
    metadata: req.metadata ?? {},
  };
}

/** How a finished answer ends: length and content filtering leave the response incomplete. */
export function endingOf(finishReason: string | null | undefined): Pick<ResponseObject, 'status' | 'incomplete_details'> {
  switch (normalizeFinishReason(finishReason)) {
    case 'length':
      return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    case 'content_filter':
      return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    default:
      return { status: 'completed', incomplete_details: null };
  }
}

export function requestModel(req: Obj, fallback: string): string {
  return typeof req.model === 'string' && req.model ? req.model : fallback;
}

/**
 * A chat tool call as the Responses item for the tool the client offered: a custom tool's call with its free-form
 * input, a namespaced function's call under its own name and namespace, any other function's call as it is.
 */
export function callItem(origin: ToolOrigin | undefined, name: string, callId: string, base: string, index: number, status: ItemStatus, args: string): ResponsesOutputItem {
  const named = origin ? { name: origin.name, ...(origin.namespace ? { namespace: origin.namespace } : {}) } : { name };
  if (origin?.custom) return { id: itemId('ctc', base, index), type: 'custom_tool_call', status, call_id: callId, ...named, input: customInput(args) };
  return { id: itemId('fc', base, index), type: 'function_call', status, call_id: callId, ...named, arguments: args };
}

/**
 * A ChatCompletion as the Response object (a Responses client served by a chat upstream). `base` is the id base the
 * response and its items are named with (ids.ts: newIdBase).
 */
export function chatToResponses(completion: ChatCompletion, req: Obj, base: string): ResponseObject {
  const choice = completion.choices?.[0];
  const msg = choice?.message;
  const ending = endingOf(choice?.finish_reason);
  const output: ResponsesOutputItem[] = [];
  const shell = responseShell(req, requestModel(req, completion.model), responseId(base), completion.created);
  if (isCompactionRequest(req)) {
    // The answer is the summary: one compaction item, whatever else the model wrote (compaction.ts).
    const summary = typeof msg?.content === 'string' ? msg.content : '';
    return { ...shell, ...ending, output: [compactionItem(base, summary)], usage: responsesUsage(completion.usage) };
  }

  const signature = wantsSealedReasoning(req) ? msg?.reasoning_signature : undefined;
  if (msg?.reasoning_content || signature) {
    const item: ResponsesReasoningItem = { id: itemId('rs', base, output.length), type: 'reasoning', summary: [] };
    if (msg?.reasoning_content) item.summary.push({ type: 'summary_text', text: msg.reasoning_content });
    if (signature) item.encrypted_content = sealReasoning({ text: msg?.reasoning_content ?? '', signature });
    output.push(item);
  }
  const text = typeof msg?.content === 'string' ? msg.content : '';
  if (text || msg?.refusal) {
    const content: Array<ResponsesOutputText | ResponsesRefusal> = [];
    if (text) content.push({ type: 'output_text', text, annotations: [], logprobs: [] });
    if (msg?.refusal) content.push({ type: 'refusal', refusal: msg.refusal });
    output.push({ id: itemId('msg', base, output.length), type: 'message', status: 'completed', role: 'assistant', content });
  }
  const calls = msg?.tool_calls ?? [];
  const origins = calls.length > 0 ? toolOrigins(req) : null;
  for (const call of calls) {
    const args = call.function.arguments ?? '';
    output.push(callItem(origins!.get(call.function.name), call.function.name, call.id, base, output.length, 'completed', args));
  }

  // The answer was cut in its last item; the ones before it were whole.
  const last = output[output.length - 1];
  if (ending.status === 'incomplete' && last && last.type !== 'reasoning' && last.type !== 'compaction') last.status = 'incomplete';

  return {
    ...shell,
    ...ending,
    output,
    usage: responsesUsage(completion.usage),
  };
}
