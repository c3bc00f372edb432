import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../mock-openai.js';
import { startClaudeMock, type ClaudeMock } from './claude.js';
import { startGeminiMock, type GeminiMock } from './gemini.js';

/* The mock upstreams fail on demand the ways the fault matrix needs: late, silent mid-answer, malformed, rate-limited. */

interface Probe {
  status: number;
  retryAfter: string | null;
  /** What arrived before the client gave up (or the whole body). */
  text: string;
  /** ms until the status line. */
  headAfterMs: number;
  /** Whether the body was still open when the client gave up. */
  open: boolean;
}

/**
 * Sends a call and reads for at most `readMs` (then leaves). Given, `readMs` bounds the wait for the status line too;
 * by default that wait is longer, since a loaded machine may take more than the reading window to answer at all.
 */
async function probe(url: string, headers: Record<string, string>, body: unknown, readMs?: number): Promise<Probe> {
  const started = Date.now();
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), readMs ?? 5000);
  let text = '';
  let open = false;
  let status = 0;
  let retryAfter: string | null = null;
  let headAfterMs = -1;
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: controller.signal });
    status = res.status;
    retryAfter = res.headers.get('retry-after');
    headAfterMs = Date.now() - started;
    if (readMs === undefined) {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), 400);
    }
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
  } catch {
    open = status !== 0;
  } finally {
    clearTimeout(timer);
  }
  return { status, retryAfter, text, headAfterMs, open };
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('mock upstream faults', () => {
  let openai: MockOpenAI;
  let claude: ClaudeMock;
  let gemini: GeminiMock;
  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startMockOpenAI(), startClaudeMock(), startGeminiMock()]);
  });
  afterAll(() => Promise.all([openai.close(), claude.close(), gemini.close()]));

  const chat = (stream: boolean) => ({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hi' }] });
  const toOpenAI = (body: unknown, readMs?: number) => probe(`${openai.url}/v1/chat/completions`, { authorization: `Bearer ${openai.key}` }, body, readMs);
  const toClaude = (model: string, stream: boolean, readMs?: number) =>
    probe(`${claude.url}/v1/messages`, { 'x-api-key': claude.key, 'anthropic-version': '2023-06-01' }, { model, stream, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, readMs);
  const toGemini = (model: string, stream: boolean, readMs?: number) =>
    probe(`${gemini.url}/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, { 'x-goog-api-key': gemini.key }, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, readMs);

  it('OpenAI: a 429 with retry-after, a late status line, silence mid-stream, malformed JSON and SSE, a cut whole answer', async () => {
    openai.queue.push({ fail: { status: 429, retryAfter: '7' } });
    expect(await toOpenAI(chat(false))).toMatchObject({ status: 429, retryAfter: '7' });
    openai.queue.push({ headDelayMs: 5000 });
    expect((await toOpenAI(chat(false), 300)).status).toBe(0);
    openai.queue.push({ stallAfter: 2 });
    const stalled = await toOpenAI(chat(true));
    expect(stalled).toMatchObject({ status: 200, open: true });
    expect(stalled.text).toContain('Hello');
    expect(stalled.text).not.toContain('[DONE]');
    openai.queue.push({ malformed: true });
    const malformed = await toOpenAI(chat(false));
    expect(malformed.status).toBe(200);
    expect(parses(malformed.text)).toBe(false);
    openai.queue.push({ malformed: true });
    const events = (await toOpenAI(chat(true))).text.split('\n\n').filter((e) => e.startsWith('data: {'));
    expect(events.filter((e) => !parses(e.slice(6)))).toHaveLength(1);
    openai.queue.push({ cutAfter: 1 });
    const cut = await toOpenAI(chat(false));
    expect(parses(cut.text)).toBe(false);
  });

  it('Claude and Gemini: malformed fixture cases, and the headDelayMs and stallAfter options', async () => {
    expect(parses((await toClaude('claude-mock-malformed', false)).text)).toBe(false);
    expect((await toClaude('claude-mock-malformed', true)).text).toContain('"text":" from\n');
    expect(parses((await toGemini('gemini-mock-malformed', false)).text)).toBe(false);
    claude.stallAfter = 4;
    gemini.headDelayMs = 5000;
    try {
      const stalled = await toClaude('claude-mock-default', true);
      expect(stalled).toMatchObject({ status: 200, open: true });
      expect(stalled.text).toContain('Hello');
      expect(stalled.text).not.toContain('message_stop');
      expect((await toGemini('gemini-mock-default', true, 300)).status).toBe(0);
    } finally {
      claude.stallAfter = undefined;
      gemini.headDelayMs = 0;
    }
  });
});
