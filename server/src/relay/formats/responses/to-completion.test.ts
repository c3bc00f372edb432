import { describe, expect, it } from 'vitest';
import { responsesToCompletion } from './to-completion.js';

describe('a Response read as a chat completion', () => {
  it('joins text and refusals, keeps reasoning and function calls, and maps the status', () => {
    const out = responsesToCompletion({
      status: 'incomplete',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] },
        { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [], logprobs: [] }, { type: 'refusal', refusal: ' no' }] },
        { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get', arguments: '{"a":1}' },
      ],
    });
    expect(out.choices[0]).toMatchObject({
      message: { content: 'Hello no', reasoning_content: 'thinking', tool_calls: [{ id: 'call_1', function: { name: 'get', arguments: '{"a":1}' } }] },
      finish_reason: 'length',
    });
  });

  it('keeps the Response’s usage, cached and reasoning tokens included', () => {
    const out = responsesToCompletion({
      status: 'completed',
      output: [],
      usage: { input_tokens: 30, input_tokens_details: { cached_tokens: 10 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 42 },
    });
    expect(out.usage).toEqual({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, prompt_tokens_details: { cached_tokens: 10 }, completion_tokens_details: { reasoning_tokens: 4 } });
  });
});
