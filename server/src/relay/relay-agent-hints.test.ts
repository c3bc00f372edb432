import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { chatAnswer, claudeAnswer, geminiAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';

/*
 * What coding agents send on every request, on channels of another format. Fields that change the answer are
 * converted or refused; hints the target has no use for (context management, verbosity, cache keys, client tags,
 * hosted tools nobody forces) are left out, and the answer names them in X-Switchyard-Dropped
 * (docs/field-mapping.md). The bodies below are shaped as Claude Code, Codex CLI and Gemini CLI send them.
 */

/** A Claude Code turn: betas, adaptive thinking, effort, context management, cached system blocks, a system reminder. */
function claudeCodeBody(model: string) {
  return {
    model,
    max_tokens: 32000,
    stream: false,
    thinking: { type: 'adaptive', display: 'omitted' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: JSON.stringify({ device_id: 'd1', account_uuid: '', session_id: 'b6f1c0de-0000-4000-8000-000000000001' }) },
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Work in the current folder.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Read notes.txt', cache_control: { type: 'ephemeral' } }] },
      { role: 'system', content: 'The user opened notes.txt in the IDE.' },
    ],
    tools: [
      {
        name: 'Read',
        description: 'Reads a file',
        input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'], additionalProperties: false },
      },
      { name: 'WebFetch', description: 'Fetches a URL', defer_loading: true, input_schema: { type: 'object', properties: { url: { type: 'string' } } } },
    ],
  };
}

/** A Codex CLI turn (store off, the whole history each time, hosted tools it expects OpenAI to run). */
function codexBody(model: string, extra: Record<string, unknown> = {}) {
  return {
    model,
    instructions: 'You are Codex.',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the files' }] }],
    tools: [
      { type: 'function', name: 'shell', description: 'Runs a command', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } },
      { type: 'web_search' },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: '019a0000-0000-7000-8000-000000000001',
    client_metadata: { originator: 'codex_exec' },
    text: { verbosity: 'low' },
    ...extra,
  };
}

const dropped = (res: Response) => (res.headers.get('x-switchyard-dropped') ?? '').split(',').filter(Boolean);

describe.each(testDatabases(['sqlite']))('coding agents’ hint fields on converted channels on $name', (database) => {
  let r: ScriptedRelay;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${r.f.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${r.key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    r = await startScriptedRelay(database);
  });
  afterAll(async () => {
    await r.close();
  });

  describe('a Claude Code turn', () => {
    const betas = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,context-management-2025-06-27,interleaved-thinking-2025-05-14' };

    it('is answered on an OpenAI channel: the reminder stays a system message, context management is named as dropped', async () => {
      r.openai.next.push({ json: chatAnswer({ role: 'assistant', content: 'Done.' }) });
      const res = await post('/v1/messages?beta=true', claudeCodeBody(M.gptReasoning), betas);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { content: Array<{ text: string }> }).content[0].text).toBe('Done.');
      expect(dropped(res)).toEqual(['context_management']);
      const sent = r.openai.last() as { messages: Array<{ role: string; content: unknown }>; tools: Array<{ function: Record<string, unknown> }> } & Record<string, unknown>;
      expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'system']);
      expect(sent.messages[0].content).toBe("You are Claude Code, Anthropic's official CLI for Claude.\nWork in the current folder.");
      expect(sent.messages[2].content).toBe('The user opened notes.txt in the IDE.');
      expect(sent).not.toHaveProperty('context_management');
      expect(sent.reasoning_effort).toBe('medium');
      expect(sent.tools.map((t) => t.function.name)).toEqual(['Read', 'WebFetch']);
      expect(JSON.stringify(sent.tools)).not.toContain('defer_loading');
    });

    it('on a model that does not reason, leaves the effort out and lowers the limit to the model’s own', async () => {
      r.openai.next.push({ json: chatAnswer({ role: 'assistant', content: 'Done.' }) });
      const res = await post('/v1/messages?beta=true', claudeCodeBody(M.gpt), betas);
      expect(res.status).toBe(200);
      expect(dropped(res)).toEqual(['context_management', 'thinking']);
      expect(r.openai.last()).toMatchObject({ model: M.gpt, max_tokens: 16_384 });
      expect(r.openai.last()).not.toHaveProperty('reasoning_effort');
    });

    it('is answered on a Gemini channel', async () => {
      r.gemini.next.push({ json: geminiAnswer([{ text: 'Done.' }]) });
      const res = await post('/v1/messages?beta=true', claudeCodeBody(M.gemini), betas);
      expect(res.status).toBe(200);
      // Gemini has no end-user tag: metadata.user_id (which became `user`) has nowhere to go either.
      expect(dropped(res)).toEqual(['context_management', 'metadata']);
      const sent = r.gemini.last() as { systemInstruction: { parts: Array<{ text: string }> } } & Record<string, unknown>;
      expect(sent.systemInstruction.parts.map((p) => p.text).join('\n')).toContain('The user opened notes.txt in the IDE.');
      expect(JSON.stringify(sent)).not.toContain('context_management');
    });

    it('goes to a Claude channel as sent, and the answer names nothing dropped', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Done.' }]) });
      const res = await post('/v1/messages?beta=true', claudeCodeBody(M.claude), betas);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-switchyard-dropped')).toBeNull();
      expect(r.claude.last().context_management).toEqual({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] });
    });
  });

  describe('a Codex turn', () => {
    it.each([
      // Claude can forbid parallel tool calls (disable_parallel_tool_use); Gemini cannot, and the client copes.
      ['Claude', M.claude, () => r.claude, () => ({ json: claudeAnswer([{ type: 'text', text: 'a.txt' }]) }), []],
      ['Gemini', M.gemini, () => r.gemini, () => ({ json: geminiAnswer([{ text: 'a.txt' }]) }), ['parallel_tool_calls']],
    ] as const)('is answered on a %s channel, naming the hints and the hosted tool it left out', async (_name, model, upstream, answer, alsoDropped) => {
      upstream().next.push(answer());
      const res = await post('/v1/responses', codexBody(model), { originator: 'codex_exec', 'session-id': 's-1' });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { output: Array<{ type: string; content?: Array<{ text: string }> }> };
      expect(body.output.find((o) => o.type === 'message')?.content?.[0].text).toBe('a.txt');
      expect(dropped(res).sort()).toEqual(['client_metadata', 'prompt_cache_key', 'store', 'text.verbosity', 'tools[].type=web_search', ...alsoDropped].sort());
      const sent = JSON.stringify(upstream().last());
      for (const word of ['web_search', 'verbosity', 'client_metadata', 'prompt_cache_key']) expect(sent).not.toContain(word);
      expect(sent).toContain('shell');
    });

    it('goes to OpenAI’s own Responses endpoint as sent, with Codex’s identity headers and nothing named dropped', async () => {
      r.openai.next.push({
        json: { id: 'resp_1', object: 'response', status: 'completed', model: M.gpt, output: [], usage: { input_tokens: 11, output_tokens: 7, total_tokens: 18 } },
      });
      // As Codex 0.171 sends them (and older versions' session_id, the responses-lite flag).
      const identity = {
        originator: 'codex_exec',
        'session-id': 's-1',
        'thread-id': 's-1',
        session_id: 's-1',
        'x-client-request-id': 'r-1',
        'x-codex-turn-metadata': '{"turn":1}',
        'x-codex-beta-features': 'remote_compaction_v2',
        'x-openai-internal-codex-responses-lite': 'true',
      };
      const res = await post('/v1/responses', codexBody(M.gpt), { ...identity, 'x-unrelated': 'no' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-switchyard-dropped')).toBeNull();
      const sent = r.openai.requests.at(-1)!;
      expect(sent.path).toBe('/v1/responses');
      expect(sent.headers).toMatchObject(identity);
      expect(sent.headers).not.toHaveProperty('x-unrelated');
      expect(sent.json).toMatchObject({ text: { verbosity: 'low' }, client_metadata: { originator: 'codex_exec' } });
    });

    it('without tools, leaves out parallel_tool_calls instead of refusing it on Gemini', async () => {
      r.gemini.next.push({ json: geminiAnswer([{ text: 'ok' }]) });
      const res = await post('/v1/responses', codexBody(M.gemini, { tools: [], tool_choice: undefined }));
      expect(res.status).toBe(200);
      expect(dropped(res)).toContain('parallel_tool_calls');
    });

    it('refuses a hosted tool that tool_choice forces, before any upstream call', async () => {
      const before = r.claude.requests.length;
      const res = await post('/v1/responses', codexBody(M.claude, { tool_choice: { type: 'web_search' } }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('web_search');
      expect(r.claude.requests.length).toBe(before);
    });
  });

  describe('Gemini CLI’s model router', () => {
    /** Its routing call: JSON output with a schema in Gemini's upper-case type names. */
    const routerBody = {
      contents: [{ role: 'user', parts: [{ text: 'Pick a model for: fix the typo' }] }],
      generationConfig: {
        temperature: 0,
        topK: 40,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'OBJECT', properties: { reasoning: { type: 'STRING' }, model_choice: { type: 'STRING', enum: ['flash', 'pro'] } }, required: ['reasoning', 'model_choice'] },
      },
    };

    it('gets a structured answer on a Claude channel (the schema in JSON Schema’s lower-case types)', async () => {
      // Not a strict schema: Claude is made to answer through a forced tool that carries it.
      r.claude.next.push({ json: claudeAnswer([{ type: 'tool_use', id: 'toolu_1', name: 'json_response', input: { reasoning: 'small', model_choice: 'flash' } }], { stop: 'tool_use' }) });
      const res = await post(`/v1beta/models/${M.claude}:generateContent`, routerBody, { 'x-goog-api-key': r.key });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
      expect(JSON.parse(answer.candidates[0].content.parts[0].text)).toEqual({ reasoning: 'small', model_choice: 'flash' });
      const sent = r.claude.last() as { tools: Array<{ input_schema: Record<string, unknown> }> } & Record<string, unknown>;
      expect(sent.tools[0].input_schema).toEqual({ type: 'object', properties: { reasoning: { type: 'string' }, model_choice: { type: 'string', enum: ['flash', 'pro'] } }, required: ['reasoning', 'model_choice'] });
      expect(sent.top_k).toBe(40);
    });

    it('on an OpenAI channel: a lower-case schema, and topK left out (not an OpenAI parameter) and named', async () => {
      r.openai.next.push({ json: chatAnswer({ role: 'assistant', content: '{"reasoning":"small","model_choice":"flash"}' }) });
      const res = await post(`/v1beta/models/${M.gpt}:generateContent`, routerBody, { 'x-goog-api-key': r.key });
      expect(res.status).toBe(200);
      const sent = r.openai.last() as { response_format: { json_schema: { schema: Record<string, unknown> } } } & Record<string, unknown>;
      expect(sent.response_format.json_schema.schema).toMatchObject({ type: 'object', properties: { reasoning: { type: 'string' } } });
      expect(sent).not.toHaveProperty('top_k');
      expect(dropped(res)).toEqual(['generationConfig.topK']);
    });
  });
});
