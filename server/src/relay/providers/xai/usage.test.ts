import { describe, expect, it } from 'vitest';
import type { ChatUsage } from '../../formats/openai/chat.js';
import { openAIUsageOfXai } from './usage.js';

describe("xAI usage in OpenAI's terms", () => {
  it('makes completion_tokens total minus prompt, reasoning included', () => {
    const u: ChatUsage = { prompt_tokens: 30, completion_tokens: 10, total_tokens: 90, completion_tokens_details: { reasoning_tokens: 50 } };
    openAIUsageOfXai(u);
    expect(u).toMatchObject({ prompt_tokens: 30, completion_tokens: 60, total_tokens: 90 });
  });

  it('adds the reasoning tokens when no total came, and leaves a usage without reasoning alone', () => {
    const noTotal = { prompt_tokens: 30, completion_tokens: 10, completion_tokens_details: { reasoning_tokens: 50 } } as ChatUsage;
    openAIUsageOfXai(noTotal);
    expect(noTotal).toMatchObject({ completion_tokens: 60, total_tokens: 90 });
    const plain: ChatUsage = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 };
    openAIUsageOfXai(plain);
    expect(plain).toEqual({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 });
    const counted: ChatUsage = { prompt_tokens: 30, completion_tokens: 60, total_tokens: 90, completion_tokens_details: { reasoning_tokens: 50 } };
    openAIUsageOfXai(counted);
    expect(counted).toMatchObject({ completion_tokens: 60, total_tokens: 90 });
  });
});
