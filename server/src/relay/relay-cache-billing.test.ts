import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing } from '../test/billing.js';
import { testDatabases } from '../test/databases.js';
import { claudeAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';

/*
 * Claude's cache writes by lifetime: a coding agent marks its system prompt for the one-hour cache and the turn for
 * the five-minute one, and Anthropic prices the two apart (1.25x and 2x the input price). Each part is billed at its
 * own ratio (CacheCreationRatio / CacheCreation1hRatio, built-in for Claude when unset), on passthrough and
 * converted, streamed and not.
 */

/** What Anthropic reports for such a turn: 10 fresh tokens, 500 read, 1,000 written for 5 minutes and 2,000 for an hour. */
const USAGE = {
  input_tokens: 10,
  cache_read_input_tokens: 500,
  cache_creation_input_tokens: 3000,
  cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
  output_tokens: 20,
};
const TOKENS = { prompt: 3510, completion: 20 };
/** Ratio 1, completion 2 (scripted-relay.ts); reads 0.1, 5-minute writes 1.25, 1-hour writes 2 (Claude's built-ins). */
const COST = 10 + 500 * 0.1 + 1000 * 1.25 + 2000 * 2 + 20 * 2;

function claudeStream(): string[] {
  const frame = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  const { output_tokens: _output, ...start } = USAGE;
  return [
    frame('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: M.claude, content: [], stop_reason: null, usage: { ...start, output_tokens: 1 } } }),
    frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Done.' } }),
    frame('content_block_stop', { index: 0 }),
    frame('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }),
    frame('message_stop', {}),
  ];
}

describe.each(testDatabases(['sqlite']))('cache writes by lifetime on $name', (database) => {
  let r: ScriptedRelay;
  const bill = billing(() => r.f);
  const claude = () => new Anthropic({ apiKey: r.key, baseURL: r.f.baseUrl, maxRetries: 0 });
  const openai = () => new OpenAI({ apiKey: r.key, baseURL: `${r.f.baseUrl}/v1`, maxRetries: 0 });
  const ask = { model: M.claude, max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };

  beforeAll(async () => {
    r = await startScriptedRelay(database);
  });
  afterAll(async () => {
    await r.close();
  });

  it('bills a Claude client’s one-hour writes at 2x and five-minute ones at 1.25x, and logs both', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Done.' }], { usage: USAGE }) });
    const { result, other } = await bill.expectCharge(M.claude, TOKENS, COST, () => claude().messages.create(ask));
    expect(result.usage).toMatchObject(USAGE);
    expect(other).toMatchObject({ cache_tokens: 500, cache_creation_tokens: 3000, cache_creation_ratio: 1.25, cache_creation_tokens_1h: 2000, cache_creation_ratio_1h: 2 });
  });

  it('counts the reads where the hit rate is summed: the log’s column, the log stat and the dashboard roll-up', async () => {
    const hour = Math.floor(Date.now() / 1000);
    const window = `start_timestamp=${hour - 3600}&end_timestamp=${hour + 3600}`;
    const sums = async () => {
      await r.f.flush();
      await r.f.t.app.ctx.jobs.runNow('usage-flush');
      const stat = await r.f.t.call(r.f.root, { method: 'GET', url: `/api/log/stat?type=2&model_name=${M.claude}&${window}` });
      const data = await r.f.t.call(r.f.root, { method: 'GET', url: `/api/data/?${window}` });
      const rows = (data.json() as { data: Array<{ model_name: string; prompt_tokens: number; cache_tokens: number }> }).data.filter((d) => d.model_name === M.claude);
      const { prompt_tokens, cache_tokens } = (stat.json() as { data: { prompt_tokens: number; cache_tokens: number } }).data;
      return {
        stat: { prompt_tokens, cache_tokens },
        dashboard: { prompt_tokens: rows.reduce((n, d) => n + d.prompt_tokens, 0), cache_tokens: rows.reduce((n, d) => n + d.cache_tokens, 0) },
      };
    };
    const before = await sums();
    r.claude.next.push({ sse: claudeStream() });
    // The converted path too: an OpenAI client's call counts its reads the same.
    r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Done.' }], { usage: USAGE }) });
    const { log } = await bill.expectCharge(M.claude, TOKENS, COST, () => claude().messages.stream(ask).finalMessage());
    expect(log.cache_tokens).toBe(500);
    const converted = await bill.expectCharge(M.claude, TOKENS, COST, () => openai().chat.completions.create({ model: M.claude, messages: ask.messages }));
    expect(converted.log.cache_tokens).toBe(500);
    const after = await sums();
    const added = { prompt_tokens: 2 * TOKENS.prompt, cache_tokens: 2 * 500 };
    expect(after.stat).toEqual({ prompt_tokens: before.stat.prompt_tokens + added.prompt_tokens, cache_tokens: before.stat.cache_tokens + added.cache_tokens });
    expect(after.dashboard).toEqual({ prompt_tokens: before.dashboard.prompt_tokens + added.prompt_tokens, cache_tokens: before.dashboard.cache_tokens + added.cache_tokens });
  });

  it('bills the same when the lifetimes come in a passed-through stream', async () => {
    r.claude.next.push({ sse: claudeStream() });
    await bill.expectCharge(M.claude, TOKENS, COST, () => claude().messages.stream(ask).finalMessage());
  });

  it('bills the same on a converted path, where the OpenAI client sees the writes by lifetime too', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Done.' }], { usage: USAGE }) });
    const { result } = await bill.expectCharge(M.claude, TOKENS, COST, () => openai().chat.completions.create({ model: M.claude, messages: ask.messages }));
    expect(result.usage).toMatchObject({ prompt_tokens: 3510, prompt_tokens_details: { cached_tokens: 500 }, cache_creation_input_tokens: 3000, cache_creation: USAGE.cache_creation });
    r.claude.next.push({ sse: claudeStream() });
    await bill.expectCharge(M.claude, TOKENS, COST, async () => {
      const stream = await openai().chat.completions.create({ model: M.claude, messages: ask.messages, stream: true, stream_options: { include_usage: true } });
      for await (const _chunk of stream) void _chunk;
    });
  });

  it('takes both write ratios from the operator’s options when set', async () => {
    await r.f.setOption('CacheCreationRatio', JSON.stringify({ [M.claude]: 1.5 }));
    await r.f.setOption('CacheCreation1hRatio', JSON.stringify({ [M.claude]: 3 }));
    try {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: 'Done.' }], { usage: USAGE }) });
      const { other } = await bill.expectCharge(M.claude, TOKENS, 10 + 50 + 1000 * 1.5 + 2000 * 3 + 40, () => claude().messages.create(ask));
      expect(other).toMatchObject({ cache_creation_ratio: 1.5, cache_creation_ratio_1h: 3 });
    } finally {
      await r.f.setOption('CacheCreationRatio', '{}');
      await r.f.setOption('CacheCreation1hRatio', '{}');
    }
  });
});
