import type { ScriptedAnswer } from '../../test/mocks/scripted.js';
import type { PlainRequest } from '../../test/mocks/local-server.js';
import { COMPACTION_REQUEST } from '../formats/responses/compaction.js';

/*
 * Upstream stand-ins for the agent suites, in each provider's streamed wire format: the first turn asks the agent to
 * run one harmless tool of its own (a file read in the test's scratch folder), and once the tool's result comes back
 * the answer is ANSWER. Each turn reports 100 prompt tokens and CALL_OUTPUT or ANSWER_OUTPUT output tokens.
 */

/** What every agent is asked, what a.txt in its scratch folder holds, and the answer once it has read it. */
export const PROMPT = 'What does a.txt say?';
export const FILE_TEXT = 'hello from the scratch folder';
export const ANSWER = 'The file says hello.';
export const CALL_OUTPUT = 12;
export const ANSWER_OUTPUT = 6;

/** What the gateway charges for the two turns at ratio 1 and completion ratio 2. */
export const TURN_COSTS = [100 + CALL_OUTPUT * 2, 100 + ANSWER_OUTPUT * 2];

export interface ToolAsk {
  name: string;
  args: Record<string, unknown>;
}

/** Whether an upstream turn's body, in each wire format, carries a tool result with a.txt's text. */
export const carriesFileText = {
  claude: (body: string) => body.includes('"tool_result"') && body.includes(FILE_TEXT),
  gemini: (body: string) => body.includes('"functionResponse"') && body.includes(FILE_TEXT),
  openai: (body: string) => body.includes('"role":"tool"') && body.includes(FILE_TEXT),
  responses: (body: string) => body.includes('"function_call_output"') && body.includes(FILE_TEXT),
};
export type WireFormat = keyof typeof carriesFileText;

const sseFrame = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/** The summary a stand-in writes when asked to compact the conversation (the gateway's request, compaction.ts). */
export const SUMMARY = `The user asked what a.txt says; it was read: ${FILE_TEXT}.`;

/**
 * Claude Messages: the call as a tool_use block, the answer once a tool_result came (or the conversation's summary,
 * which holds it). Asked to compact the conversation, it writes SUMMARY, costing what an answer costs.
 */
export function claudeStandIn(model: string, ask: ToolAsk): (req: PlainRequest) => ScriptedAnswer {
  return (req) => {
    const last = ((req.json?.messages ?? []) as Array<{ content: unknown }>).at(-1)?.content;
    const lastText = JSON.stringify(last ?? '');
    const compacting = lastText.includes(COMPACTION_REQUEST.slice(0, 60));
    const answered =
      compacting || lastText.includes('Summary of the conversation so far') || (Array.isArray(last) && last.some((c: { type?: string }) => c.type === 'tool_result'));
    const text = compacting ? SUMMARY : ANSWER;
    const start = sseFrame('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } });
    const body = answered
      ? [
          sseFrame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          sseFrame('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
          sseFrame('content_block_stop', { index: 0 }),
          sseFrame('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: ANSWER_OUTPUT } }),
        ]
      : [
          sseFrame('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_read', name: ask.name, input: {} } }),
          sseFrame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(ask.args) } }),
          sseFrame('content_block_stop', { index: 0 }),
          sseFrame('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: CALL_OUTPUT } }),
        ];
    return { sse: [start, ...body, sseFrame('message_stop', {})] };
  };
}

/** Gemini streamGenerateContent (alt=sse): the call as a functionCall part, the answer once a functionResponse came. */
export function geminiStandIn(model: string, ask: ToolAsk): (req: PlainRequest) => ScriptedAnswer {
  return (req) => {
    const contents = (req.json?.contents ?? []) as Array<{ parts?: Array<Record<string, unknown>> }>;
    const answered = contents.at(-1)?.parts?.some((p) => 'functionResponse' in p) === true;
    const parts = answered ? [{ text: ANSWER }] : [{ functionCall: { name: ask.name, args: ask.args } }];
    const output = answered ? ANSWER_OUTPUT : CALL_OUTPUT;
    const usageMetadata = { promptTokenCount: 100, candidatesTokenCount: output, totalTokenCount: 100 + output };
    return { sse: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: model }] };
  };
}

/** OpenAI chat completions, streamed with usage: the call as tool_calls, the answer once a tool message came. */
export function openAIStandIn(model: string, ask: ToolAsk): (req: PlainRequest) => ScriptedAnswer {
  return (req) => {
    const messages = (req.json?.messages ?? []) as Array<{ role?: string }>;
    const answered = messages.at(-1)?.role === 'tool';
    const chunk = (delta: object, finish: string | null) => ({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    const output = answered ? ANSWER_OUTPUT : CALL_OUTPUT;
    const usage = { id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 100, completion_tokens: output, total_tokens: 100 + output } };
    const content = answered
      ? [chunk({ role: 'assistant', content: ANSWER }, null), chunk({}, 'stop')]
      : [chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_read', type: 'function', function: { name: ask.name, arguments: JSON.stringify(ask.args) } }] }, null), chunk({}, 'tool_calls')];
    return { sse: [...content, usage, '[DONE]'] };
  };
}

/** OpenAI Responses, streamed: the call as a function_call item, the answer once a function_call_output came. */
export function responsesStandIn(model: string, ask: ToolAsk): (req: PlainRequest) => ScriptedAnswer {
  return (req) => {
    const input = req.json?.input;
    const answered = Array.isArray(input) && (input.at(-1) as { type?: string } | undefined)?.type === 'function_call_output';
    const output = answered ? ANSWER_OUTPUT : CALL_OUTPUT;
    const response = (status: string, items: object[], usage: object | null) => ({ id: 'resp_standin', object: 'response', created_at: 1, status, model, output: items, usage });
    const item = answered
      ? { id: 'msg_standin', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: ANSWER, annotations: [] }] }
      : { id: 'fc_standin', type: 'function_call', status: 'completed', call_id: 'call_read', name: ask.name, arguments: JSON.stringify(ask.args) };
    const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 100 + output };
    let seq = 0;
    const ev = (name: string, data: object) => sseFrame(name, { sequence_number: seq++, ...data });
    const located = { item_id: item.id, output_index: 0 };
    const middle = answered
      ? [
          ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
          ev('response.content_part.added', { ...located, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
          ev('response.output_text.delta', { ...located, content_index: 0, delta: ANSWER }),
          ev('response.output_text.done', { ...located, content_index: 0, text: ANSWER }),
          ev('response.content_part.done', { ...located, content_index: 0, part: { type: 'output_text', text: ANSWER, annotations: [] } }),
        ]
      : [
          ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }),
          ev('response.function_call_arguments.delta', { ...located, delta: JSON.stringify(ask.args) }),
          ev('response.function_call_arguments.done', { ...located, arguments: JSON.stringify(ask.args) }),
        ];
    return {
      sse: [
        ev('response.created', { response: response('in_progress', [], null) }),
        ...middle,
        ev('response.output_item.done', { output_index: 0, item }),
        ev('response.completed', { response: response('completed', [item], usage) }),
      ],
    };
  };
}
