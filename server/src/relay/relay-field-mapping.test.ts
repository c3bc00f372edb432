import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { chatAnswer, claudeAnswer, geminiAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';

/*
 * Request fields across formats: what the target supports is mapped to its own field; what it cannot do is refused
 * with a 400 in the caller's format before any upstream call when it changes the answer, and left out, named in
 * X-Switchyard-Dropped, when it is a hint or a provider's own tool nobody forces (docs/field-mapping.md).
 */

const ask = [{ role: 'user' as const, content: 'Hi' }];

/** Gemini's logprobsResult for the two tokens "Hi" and "!". */
const LOGPROBS_RESULT = {
  chosenCandidates: [
    { token: 'Hi', logProbability: -0.1 },
    { token: '!', logProbability: -0.5 },
  ],
  topCandidates: [
    { candidates: [{ token: 'Hi', logProbability: -0.1 }, { token: 'Hello', logProbability: -2.3 }] },
    { candidates: [{ token: '!', logProbability: -0.5 }, { token: '.', logProbability: -1.2 }] },
  ],
};

describe.each(testDatabases(['sqlite']))('request fields on other formats’ channels on $name', (database) => {
  let r: ScriptedRelay;
  const openai = () => r.f.client(r.key);
  const claudeSdk = () => new Anthropic({ apiKey: r.key, baseURL: r.f.baseUrl, maxRetries: 0 });
  const gemini = () => new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.f.baseUrl } });

  /** The 400 a call ends with, and that no upstream was called. */
  async function refusedBefore(run: () => Promise<unknown>): Promise<{ status: number; message: string }> {
    const calls = r.claude.requests.length + r.gemini.requests.length + r.openai.requests.length;
    const err = (await run().then(
      () => null,
      (e: unknown) => e,
    )) as { status: number; message: string } | null;
    expect(err?.status).toBe(400);
    expect(r.claude.requests.length + r.gemini.requests.length + r.openai.requests.length).toBe(calls);
    return err!;
  }

  beforeAll(async () => {
    r = await startScriptedRelay(database);
  });

  afterAll(async () => {
    await r.close();
  });

  describe('OpenAI clients on a Claude channel', () => {
    it('refuses n: 2 (Claude answers once per call) with a 400 naming the field', async () => {
      const err = await refusedBefore(() => openai().chat.completions.create({ model: M.claude, messages: ask, n: 2 }));
      expect(err.message).toContain('n');
    });

    it('accepts n: 1 and the defaults LangChain sends: top_p goes on, the fields Claude lacks are left out', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Hi!' }]) });
      const calls = r.claude.requests.length;
      const answer = await openai().chat.completions.create({ model: M.claude, messages: ask, n: 1, presence_penalty: 0, frequency_penalty: 0, top_p: 1, logit_bias: {} });
      expect(answer.choices).toHaveLength(1);
      expect(answer.choices[0].message.content).toBe('Hi!');
      expect(r.claude.requests.length).toBe(calls + 1);
      const sent = r.claude.last();
      expect(sent.top_p).toBe(1);
      expect(sent.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
      for (const field of ['n', 'presence_penalty', 'frequency_penalty', 'logit_bias']) expect(sent).not.toHaveProperty(field);
    });

    it.each([
      ['logprobs', { logprobs: true }],
      ['presence_penalty', { presence_penalty: 0.5 }],
      ['seed', { seed: 7 }],
      ['audio output', { modalities: ['text', 'audio'] as Array<'text' | 'audio'> }],
      ['an unknown field', { frobnicate: true }],
    ])('refuses %s', async (_name, extra) => {
      await refusedBefore(() => openai().chat.completions.create({ model: M.claude, messages: ask, ...(extra as object) }));
    });

    it('sends a PDF file part as a document block', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'A PDF.' }]) });
      await openai().chat.completions.create({
        model: M.claude,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }] }],
      });
      expect((r.claude.last().messages as Array<{ content: unknown[] }>)[0].content[1]).toEqual({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'a.pdf',
      });
    });
  });

  describe('OpenAI clients on a Gemini channel', () => {
    it('maps logprobs and top_logprobs to responseLogprobs and logprobs, and returns the tokens in OpenAI’s shape', async () => {
      r.gemini.next.push({ json: geminiAnswer([{ text: 'Hi!' }], { extra: { logprobsResult: LOGPROBS_RESULT, avgLogprobs: -0.3 } }) });
      const done = await openai().chat.completions.create({ model: M.gemini, messages: ask, logprobs: true, top_logprobs: 2 });
      expect(r.gemini.last()).toMatchObject({ generationConfig: { responseLogprobs: true, logprobs: 2 } });
      expect(done.choices[0].logprobs?.content).toEqual([
        { token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105] }, { token: 'Hello', logprob: -2.3, bytes: [72, 101, 108, 108, 111] }] },
        { token: '!', logprob: -0.5, bytes: [33], top_logprobs: [{ token: '!', logprob: -0.5, bytes: [33] }, { token: '.', logprob: -1.2, bytes: [46] }] },
      ]);
    });

    it('streams the logprobs of each chunk', async () => {
      r.gemini.next.push({ sse: [geminiAnswer([{ text: 'Hi!' }], { extra: { logprobsResult: LOGPROBS_RESULT } })] });
      const stream = await openai().chat.completions.create({ model: M.gemini, messages: ask, logprobs: true, top_logprobs: 2, stream: true });
      const tokens: string[] = [];
      for await (const chunk of stream) for (const t of chunk.choices[0]?.logprobs?.content ?? []) tokens.push(t.token);
      expect(tokens).toEqual(['Hi', '!']);
    });

    it('leaves out parallel_tool_calls: false, which Gemini cannot enforce (the client handles several calls), and names it', async () => {
      r.gemini.next.push({ json: geminiAnswer([{ text: 'Hi!' }]) });
      const { response } = await openai()
        .chat.completions.create({
          model: M.gemini,
          messages: ask,
          parallel_tool_calls: false,
          tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
        })
        .withResponse();
      expect(response.headers.get('x-switchyard-dropped')).toBe('parallel_tool_calls');
      expect(JSON.stringify(r.gemini.last())).not.toContain('parallel');
    });
  });

  describe('Claude clients', () => {
    it('top_k reaches a Gemini channel as topK', async () => {
      r.gemini.next.push({ json: geminiAnswer([{ text: 'Hi!' }]) });
      // The current SDK types no longer list top_k; the API still takes it.
      await claudeSdk().messages.create({ model: M.gemini, max_tokens: 100, top_k: 20, messages: ask } as never);
      expect(r.gemini.last()).toMatchObject({ generationConfig: { topK: 20, maxOutputTokens: 100 } });
    });

    it('top_k does not reach OpenAI’s own channel, which refuses it, and is named as dropped', async () => {
      r.openai.next.push({ json: chatAnswer({ content: 'Hi!' }) });
      const { response } = await claudeSdk()
        .messages.create({ model: M.gpt, max_tokens: 100, top_k: 20, messages: ask } as never)
        .withResponse();
      expect(r.openai.last()).not.toHaveProperty('top_k');
      expect(response.headers.get('x-switchyard-dropped')).toBe('top_k');
    });

    it('max_tokens reaches an OpenAI reasoning model as max_completion_tokens, which is all it takes', async () => {
      r.openai.next.push({ json: chatAnswer({ content: 'Hi!' }) });
      await claudeSdk().messages.create({ model: M.gptReasoning, max_tokens: 16000, messages: ask });
      expect(r.openai.last()).toMatchObject({ model: M.gptReasoning, max_completion_tokens: 16000 });
      expect(r.openai.last()).not.toHaveProperty('max_tokens');
      r.openai.next.push({ json: chatAnswer({ content: 'Hi!' }) });
      await claudeSdk().messages.create({ model: M.gpt, max_tokens: 100, messages: ask });
      expect(r.openai.last()).toMatchObject({ max_tokens: 100 });
    });

    it('a limit above the model’s own is lowered to it, and effort left out for a model that does not reason', async () => {
      // What Claude Code sends with every turn, which gpt-4o-mini (16,384 at most, no reasoning) would refuse.
      r.openai.next.push({ json: chatAnswer({ content: 'Hi!' }) });
      const { response } = await claudeSdk()
        .messages.create({ model: M.gpt, max_tokens: 20_000, thinking: { type: 'enabled', budget_tokens: 8000 }, messages: ask })
        .withResponse();
      expect(r.openai.last()).toMatchObject({ max_tokens: 16_384 });
      expect(r.openai.last()).not.toHaveProperty('reasoning_effort');
      expect(response.headers.get('x-switchyard-dropped')).toBe('thinking');
    });

    it('leaves a server tool (web_search) out of the offer on another channel, and names it', async () => {
      r.openai.next.push({ json: chatAnswer({ content: 'Hi!' }) });
      const { response } = await claudeSdk()
        .messages.create({
          model: M.gpt,
          max_tokens: 100,
          messages: ask,
          tools: [
            { type: 'web_search_20250305', name: 'web_search' },
            { name: 'f', input_schema: { type: 'object', properties: {} } },
          ],
        })
        .withResponse();
      expect(response.headers.get('x-switchyard-dropped')).toBe('tools[].type=web_search_20250305');
      expect((r.openai.last().tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(['f']);
    });

    it('refuses a server tool that tool_choice forces, with a Claude-shaped 400', async () => {
      const err = (await refusedBefore(() =>
        claudeSdk().messages.create({ model: M.gpt, max_tokens: 100, messages: ask, tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'tool', name: 'web_search' } }),
      )) as unknown as { error: { type: string; error: { type: string } } };
      expect(err.error.error.type).toBe('invalid_request_error');
    });

    it('refuses mcp_servers, which only Anthropic runs', async () => {
      await refusedBefore(() => claudeSdk().messages.create({ model: M.gemini, max_tokens: 100, messages: ask, mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }] } as never));
    });
  });

  describe('Gemini clients', () => {
    it('topK reaches a Claude channel as top_k', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Hi!' }]) });
      await gemini().models.generateContent({ model: M.claude, contents: 'Hi', config: { topK: 20 } });
      expect(r.claude.last()).toMatchObject({ top_k: 20 });
    });

    it('responseLogprobs on an OpenAI channel: logprobs asked for and returned as logprobsResult', async () => {
      r.openai.next.push({
        json: chatAnswer(
          { content: 'Hi!' },
          { choice: { logprobs: { content: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105] }] }] } } },
        ),
      });
      const resp = await gemini().models.generateContent({ model: M.gpt, contents: 'Hi', config: { responseLogprobs: true, logprobs: 1 } });
      expect(r.openai.last()).toMatchObject({ logprobs: true, top_logprobs: 1 });
      expect(resp.candidates?.[0]?.logprobsResult).toEqual({ chosenCandidates: [{ token: 'Hi', logProbability: -0.1 }], topCandidates: [{ candidates: [{ token: 'Hi', logProbability: -0.1 }] }] });
    });

    it('leaves a built-in tool (googleSearch) out on a Claude channel, and names it', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Hi!' }]) });
      const res = await fetch(`${r.f.baseUrl}/v1beta/models/${M.claude}:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': r.key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], tools: [{ googleSearch: {} }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-switchyard-dropped')).toBe('tools[].googleSearch');
      expect(r.claude.last()).not.toHaveProperty('tools');
    });

    it('refuses cachedContent, which only Gemini holds', async () => {
      await refusedBefore(() => gemini().models.generateContent({ model: M.gpt, contents: 'Hi', config: { cachedContent: 'cachedContents/abc' } }));
    });
  });
});
