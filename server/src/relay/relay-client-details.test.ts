import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { claudeEvents, geminiAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';
import { claudeToChat } from './formats/claude/to-chat.js';
import type { ClaudeRequest } from './formats/claude/types.js';
import { estimateChatPromptTokens } from './tokenizer.js';

/*
 * Details real clients notice: Claude's message_start estimate, Anthropic's model paging, Gemini's thought signatures
 * through a Claude client and back, and the shape of the last event a Gemini client gets.
 */

describe.each(testDatabases(['sqlite']))('client details across formats on $name', (database) => {
  let r: ScriptedRelay;
  const claudeSdk = () => new Anthropic({ apiKey: r.key, baseURL: r.f.baseUrl, maxRetries: 0 });

  beforeAll(async () => {
    r = await startScriptedRelay(database);
  });

  afterAll(async () => {
    await r.close();
  });

  it('message_start of a converted Claude stream counts the prompt with the model family’s tokenizer; message_delta has the upstream’s figure', async () => {
    const body = {
      model: M.gpt,
      max_tokens: 100,
      system: 'You are a terse assistant. Answer in one word.',
      messages: [{ role: 'user' as const, content: 'What colour is the sky on a clear day at noon, seen from the ground?' }],
    };
    r.openai.next.push({
      sse: [
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: M.gpt, choices: [{ index: 0, delta: { role: 'assistant', content: 'Blue.' }, finish_reason: null }] },
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: M.gpt, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: M.gpt, choices: [], usage: { prompt_tokens: 31, completion_tokens: 2, total_tokens: 33 } },
        '[DONE]',
      ],
    });
    const events: Anthropic.MessageStreamEvent[] = [];
    // Copied as they come: the SDK updates the message_start snapshot in place when message_delta arrives.
    for await (const e of claudeSdk().messages.stream(body)) events.push(structuredClone(e));
    const start = events.find((e): e is Anthropic.MessageStartEvent => e.type === 'message_start')!;
    const expected = estimateChatPromptTokens(claudeToChat({ ...body, stream: true } as unknown as ClaudeRequest) as unknown as Record<string, unknown>, M.gpt);
    expect(start.message.usage.input_tokens).toBe(expected);
    // characters / 3 would have said 46 here.
    expect(expected).toBe(39);
    const delta = events.find((e): e is Anthropic.MessageDeltaEvent => e.type === 'message_delta')!;
    expect(delta.usage.input_tokens).toBe(31);
  });

  describe('GET /v1/models for the Anthropic SDK', () => {
    it('pages with limit, after_id and before_id, with has_more, first_id and last_id', async () => {
      const all = (await claudeSdk().models.list({ limit: 1000 })).data.map((m) => m.id);
      expect(all.length).toBeGreaterThanOrEqual(4);
      const first = await claudeSdk().models.list({ limit: 2 });
      expect(first.data.map((m) => m.id)).toEqual(all.slice(0, 2));
      expect(first.has_more).toBe(true);
      expect(first.last_id).toBe(all[1]);
      const next = await claudeSdk().models.list({ limit: 2, after_id: all[1] });
      expect(next.data.map((m) => m.id)).toEqual(all.slice(2, 4));
      const before = await claudeSdk().models.list({ limit: 1, before_id: all[2] });
      expect(before.data.map((m) => m.id)).toEqual([all[1]]);
      expect(before.has_more).toBe(true);
      // The SDK's auto-pagination walks every page.
      const walked: string[] = [];
      for await (const m of claudeSdk().models.list({ limit: 1 })) walked.push(m.id);
      expect(walked).toEqual(all);
    });

    it('refuses a limit above 1000 in Anthropic’s error shape', async () => {
      const res = await fetch(`${r.f.baseUrl}/v1/models?limit=1001`, { headers: { 'x-api-key': r.key, 'anthropic-version': '2023-06-01' } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { type: string }).type).toBe('error');
    });
  });

  describe('Gemini thought signatures through a Claude client', () => {
    it('a thinking block carries the signature, and the next turn gives it back to Gemini', async () => {
      r.gemini.next.push({
        json: geminiAnswer([
          { text: 'Checking the weather.', thought: true },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLWdlbWluaQ==' },
        ]),
      });
      const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
      const first = await claudeSdk().messages.create({ model: M.gemini, max_tokens: 200, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
      expect(first.content[0]).toEqual({ type: 'thinking', thinking: 'Checking the weather.', signature: 'c2lnLWdlbWluaQ==' });
      const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;

      r.gemini.next.push({ json: geminiAnswer([{ text: 'Sunny, 21°C.' }]) });
      await claudeSdk().messages.create({
        model: M.gemini,
        max_tokens: 200,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21°C' }] },
        ],
      });
      const contents = r.gemini.last().contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
      expect(contents[1].parts).toContainEqual({ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLWdlbWluaQ==' });
    });

    it('streams the signature as a signature_delta of the thinking block', async () => {
      r.gemini.next.push({
        sse: [
          geminiAnswer([{ text: 'Thinking…', thought: true }], { finish: '' }),
          geminiAnswer([{ text: 'Hi!', thoughtSignature: 'c2ln' }]),
        ].map((e) => ({ ...e, candidates: e.candidates.map((c) => (c.finishReason ? c : { content: c.content, index: 0 })) })),
      });
      const message = await claudeSdk().messages.stream({ model: M.gemini, max_tokens: 200, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage();
      const thinking = message.content.filter((b): b is Anthropic.ThinkingBlock => b.type === 'thinking');
      expect(thinking.map((b) => b.signature)).toContain('c2ln');
      expect(message.content.find((b) => b.type === 'text')).toMatchObject({ text: 'Hi!' });
    });
  });

  it('the last event of a converted stream to a Gemini client has no invented empty text part', async () => {
    r.claude.next.push({ sse: claudeEvents([{ type: 'text', text: 'Hello there.' }]) });
    const ai = new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.f.baseUrl } });
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream({ model: M.claude, contents: 'Hi' })) chunks.push(chunk);
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    expect(parts.every((p) => typeof p.text === 'string' && p.text.length > 0)).toBe(true);
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(chunks.map((c) => c.text ?? '').join('')).toBe('Hello there.');
  });
});
