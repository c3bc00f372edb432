import { describe, expect, it } from 'vitest';
import { compactBody, compactedResponse, parseCompactCall } from './compact.js';

/*
 * POST /v1/responses/compact as a Responses call: the request that asks for the compaction, what OpenAI's own
 * compact endpoint is sent (the request as the client sent it), and the answer in the compact endpoint's shape.
 */

const raw = (body: unknown) => Buffer.from(JSON.stringify(body));

describe('the compact endpoint', () => {
  it('asks for the compaction with the trigger after the input, not stored, not streamed', () => {
    const call = parseCompactCall(raw({ model: 'm', input: 'Fix it.', instructions: 'Be brief.', prompt_cache_key: 's1' }));
    expect(call).toMatchObject({ format: 'responses', compact: true, stream: false, model: 'm' });
    expect(call.json).toEqual({ model: 'm', input: [{ role: 'user', content: 'Fix it.' }, { type: 'compaction_trigger' }], instructions: 'Be brief.', prompt_cache_key: 's1', store: false, stream: false });
    expect(compactBody(call.json!, 'm-upstream')).toEqual({ model: 'm-upstream', input: [{ role: 'user', content: 'Fix it.' }], instructions: 'Be brief.', prompt_cache_key: 's1' });
  });

  it('refuses what the compact endpoint does not take, and a request with nothing to compact', () => {
    expect(() => parseCompactCall(raw({ model: 'm', input: 'x', tools: [] }))).toThrow('压缩接口不支持字段 tools');
    expect(() => parseCompactCall(raw({ model: 'm', input: 'x', stream: true }))).toThrow('压缩接口不支持字段 stream');
    expect(() => parseCompactCall(raw({ model: 'm' }))).toThrow('input 与 previous_response_id 至少需要一个');
    expect(() => parseCompactCall(raw({ model: 'm', input: 7 }))).toThrow('input 必须是字符串或数组');
    expect(() => parseCompactCall(raw({ input: 'x' }))).toThrow();
  });

  it('answers the user messages of the input, then the compaction item, with the usage', () => {
    const response = { id: 'resp_sy1', created_at: 5, output: [{ id: 'cmp_1', type: 'compaction', encrypted_content: 'swy-cmp1.eA' }], usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11 } };
    const request = { input: [{ role: 'user', content: 'a' }, { type: 'message', role: 'assistant', content: 'b' }, { type: 'function_call_output', call_id: 'c', output: 'o' }, { role: 'user', content: [{ type: 'input_text', text: 'd' }] }, { type: 'compaction_trigger' }] };
    expect(compactedResponse(response, request)).toEqual({
      id: 'resp_sy1',
      object: 'response.compaction',
      created_at: 5,
      output: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'd' }] },
        response.output[0],
      ],
      usage: response.usage,
    });
  });
});
