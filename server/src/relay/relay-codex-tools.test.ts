import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { claudeAnswer, geminiAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';

/*
 * Codex's tools on channels that only know functions: the custom apply_patch tool (free-form input held to a
 * grammar), the tools of its additional_tools item (a namespace of functions and the custom exec tool), and the
 * calls of each coming back as the items Codex sent the tools as, then going up again in the next turn's history.
 */

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch';
const GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF';

const applyPatch = { type: 'custom', name: 'apply_patch', description: 'Edits files with a patch.', format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR } };
const additionalTools = {
  type: 'additional_tools',
  role: 'developer',
  tools: [
    {
      type: 'namespace',
      name: 'files',
      description: 'Reading files',
      tools: [{ type: 'function', name: 'read', description: 'Reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
    },
    { type: 'custom', name: 'exec', description: 'Runs a command line' },
  ],
};

function codexTurn(model: string, input: unknown[], stream = false) {
  return {
    model,
    instructions: 'You are Codex.',
    input: [additionalTools, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'add hello.txt' }] }, ...input],
    tools: [applyPatch, { type: 'tool_search' }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream,
  };
}

type Item = { type: string; name?: string; namespace?: string; input?: string; arguments?: string; call_id?: string };

describe.each(testDatabases(['sqlite']))('Codex’s custom and namespaced tools on converted channels on $name', (database) => {
  let r: ScriptedRelay;
  let client: OpenAI;
  const post = (body: unknown) =>
    fetch(`${r.f.baseUrl}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${r.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    r = await startScriptedRelay(database);
    client = new OpenAI({ apiKey: r.key, baseURL: `${r.f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await r.close();
  });

  it('offers a Claude channel every tool as a function, and answers apply_patch’s call as a custom_tool_call', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'tool_use', id: 'toolu_1', name: 'apply_patch', input: { input: PATCH } }], { stop: 'tool_use' }) });
    const res = await post(codexTurn(M.claude, []));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { output: Item[] };
    expect(body.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'toolu_1', input: PATCH, status: 'completed' })]);
    expect(res.headers.get('x-switchyard-dropped')).toContain('tools[].type=tool_search');

    const sent = r.claude.last() as { tools: Array<{ name: string; description?: string; input_schema: { properties: Record<string, { type: string; description?: string }> } }> };
    expect(sent.tools.map((t) => t.name)).toEqual(['apply_patch', 'files__read', 'exec']);
    const patchTool = sent.tools[0];
    expect(patchTool.description).toBe('Edits files with a patch.');
    expect(Object.keys(patchTool.input_schema.properties)).toEqual(['input']);
    expect(patchTool.input_schema.properties.input.type).toBe('string');
    // What the free-form input must look like travels with it.
    expect(patchTool.input_schema.properties.input.description).toContain(GRAMMAR);
  });

  it('sends the last turn’s custom call and its output back up as a tool call and its result', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Added hello.txt.' }]) });
    const history = [
      { type: 'custom_tool_call', call_id: 'toolu_1', name: 'apply_patch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'toolu_1', output: 'Success. Updated the following files:\nA hello.txt' },
      { type: 'function_call', call_id: 'toolu_2', name: 'read', namespace: 'files', arguments: '{"path":"hello.txt"}' },
      { type: 'function_call_output', call_id: 'toolu_2', output: 'hello' },
    ];
    const res = await post(codexTurn(M.claude, history));
    expect(res.status).toBe(200);
    const sent = r.claude.last() as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const uses = sent.messages.flatMap((m) => m.content).filter((c) => c.type === 'tool_use');
    expect(uses).toEqual([
      expect.objectContaining({ id: 'toolu_1', name: 'apply_patch', input: { input: PATCH } }),
      expect.objectContaining({ id: 'toolu_2', name: 'files__read', input: { path: 'hello.txt' } }),
    ]);
    const results = sent.messages.flatMap((m) => m.content).filter((c) => c.type === 'tool_result');
    expect(results.map((c) => c.tool_use_id)).toEqual(['toolu_1', 'toolu_2']);
  });

  it('streams a Gemini channel’s calls as a namespaced function_call and a custom_tool_call with its input events', async () => {
    r.gemini.next.push({
      sse: [
        geminiAnswer([{ functionCall: { name: 'files__read', args: { path: 'a.txt' } } }], { finish: '' }),
        geminiAnswer([{ functionCall: { name: 'exec', args: { input: 'ls -la' } } }]),
      ],
    });
    const stream = await client.responses.create(codexTurn(M.gemini, [], true) as unknown as OpenAI.Responses.ResponseCreateParamsStreaming);
    const events: Array<{ type: string } & Record<string, unknown>> = [];
    for await (const e of stream) events.push(e as unknown as { type: string } & Record<string, unknown>);
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item as Item);
    expect(done).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'read', namespace: 'files', arguments: '{"path":"a.txt"}' }),
      expect.objectContaining({ type: 'custom_tool_call', name: 'exec', input: 'ls -la' }),
    ]);
    expect(events.find((e) => e.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: 'ls -la', output_index: 1 });
    expect(events.filter((e) => e.type === 'response.custom_tool_call_input.delta').map((e) => e.delta)).toEqual(['ls -la']);
    // No argument events for the custom call: its input is not JSON.
    expect(events.filter((e) => e.type.startsWith('response.function_call_arguments') && e.output_index === 1)).toEqual([]);
    const completed = events.at(-1) as unknown as { type: string; response: { output: Item[] } };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output.map((o) => o.type)).toEqual(['function_call', 'custom_tool_call']);
  });

  it('forces a custom tool by tool_choice as its stand-in function', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'tool_use', id: 'toolu_3', name: 'apply_patch', input: { input: PATCH } }], { stop: 'tool_use' }) });
    const res = await post({ ...codexTurn(M.claude, []), tool_choice: { type: 'custom', name: 'apply_patch' } });
    expect(res.status).toBe(200);
    expect(r.claude.last().tool_choice).toEqual({ type: 'tool', name: 'apply_patch', disable_parallel_tool_use: true });
  });
});
