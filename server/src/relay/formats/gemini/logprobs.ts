import type { ChatLogprobs } from '../openai/chat.js';

/*
 * Token log probabilities between Gemini's logprobsResult (chosen token per step, top candidates per step) and
 * OpenAI's choices[].logprobs.content (token, logprob, bytes, top_logprobs per token).
 */

export interface GeminiLogprobsCandidate {
  token?: string;
  tokenId?: number;
  logProbability?: number;
}

export interface GeminiLogprobsResult {
  topCandidates?: Array<{ candidates?: GeminiLogprobsCandidate[] }>;
  chosenCandidates?: GeminiLogprobsCandidate[];
}

const bytesOf = (token: string): number[] => [...Buffer.from(token, 'utf8')];

const entry = (c: GeminiLogprobsCandidate) => ({ token: c.token ?? '', logprob: c.logProbability ?? 0, bytes: bytesOf(c.token ?? '') });

export function chatLogprobsOf(result: GeminiLogprobsResult): ChatLogprobs {
  const top = result.topCandidates ?? [];
  return {
    content: (result.chosenCandidates ?? []).map((c, i) => ({ ...entry(c), top_logprobs: (top[i]?.candidates ?? []).map(entry) })),
    refusal: null,
  };
}

export function geminiLogprobsOf(logprobs: ChatLogprobs): GeminiLogprobsResult {
  const content = logprobs.content ?? [];
  return {
    topCandidates: content.map((t) => ({ candidates: (t.top_logprobs ?? []).map((c) => ({ token: c.token, logProbability: c.logprob })) })),
    chosenCandidates: content.map((t) => ({ token: t.token, logProbability: t.logprob })),
  };
}

/** Gemini's avgLogprobs of a candidate: the mean over its chosen tokens. */
export function averageLogprob(logprobs: ChatLogprobs): number | undefined {
  const content = logprobs.content ?? [];
  if (content.length === 0) return undefined;
  return content.reduce((sum, t) => sum + t.logprob, 0) / content.length;
}
