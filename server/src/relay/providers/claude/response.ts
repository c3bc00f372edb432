import type { ChatCompletion, ChatUsage, ToolCall } from '../../formats/openai/chat.js';
import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import type { ClaudeResponse } from '../../formats/claude/types.js';
import { relayUsageFromClaude, type RawClaudeUsage } from '../../formats/claude/usage.js';
import { cacheLifetimes } from '../../formats/openai/usage.js';

/** A Claude Messages answer as a ChatCompletion. `created` is a parameter so the conversion stays pure. */
export function claudeToChatCompletion(resp: ClaudeResponse, created = Math.floor(Date.now() / 1000)): ChatCompletion {
  let text = '';
  let reasoning = '';
  const signatures: string[] = [];
  let redacted = false;
  const toolCalls: ToolCall[] = [];
  for (const b of resp.content ?? []) {
    if (b.type === 'text') text += b.text;
    else if (b.type === 'thinking') {
      reasoning += b.thinking;
      if (typeof b.signature === 'string' && b.signature) signatures.push(b.signature);
    } else if (b.type === 'redacted_thinking') redacted = true;
    else if (b.type === 'tool_use') {
      toolCalls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
    }
  }
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: text || (toolCalls.length > 0 ? null : '') };
  if (reasoning) message.reasoning_content = reasoning;
  // A signature holds for its own block's text, and Claude takes a turn's thinking back only whole: one signed block
  // can go back as reasoning_content with its signature, several joined (or with redacted ones) cannot.
  if (signatures.length === 1 && !redacted) message.reasoning_signature = signatures[0];
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: resp.id,
    object: 'chat.completion',
    created,
    model: resp.model,
    choices: [{ index: 0, message, finish_reason: normalizeFinishReason(resp.stop_reason) ?? 'stop', logprobs: null }],
    usage: chatUsageFromClaude(resp.usage ?? {}),
  };
}

/** Claude usage in OpenAI's shape: prompt_tokens is the whole prompt, cache reads and writes included. */
export function chatUsageFromClaude(raw: RawClaudeUsage): ChatUsage {
  const u = relayUsageFromClaude(raw);
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens },
    cache_creation_input_tokens: u.cacheCreationTokens ?? 0,
    ...cacheLifetimes(u),
  };
}
