import type { ChatUsage } from '../../formats/openai/chat.js';

/*
 * xAI leaves reasoning tokens out of completion_tokens (they are counted in total_tokens and in
 * completion_tokens_details.reasoning_tokens) though they are billed as output. In OpenAI's terms, where reasoning is
 * part of the completion, completion_tokens is total minus prompt — or completion plus reasoning when no total came.
 */
export function openAIUsageOfXai(usage: ChatUsage | null | undefined): void {
  if (!usage || typeof usage !== 'object') return;
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
  const total = count(usage.total_tokens);
  // With a total, it decides (and an answer that already counts reasoning in completion_tokens is left as it is).
  const fixed = total > 0 ? Math.max(completion, total - prompt) : completion + reasoning;
  usage.completion_tokens = fixed;
  usage.total_tokens = prompt + fixed;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
