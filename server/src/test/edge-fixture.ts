import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { request } from 'undici';
import type { TestDatabase } from './databases.js';
import { startMockOpenAI, type MockOpenAI } from './mock-openai.js';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from './mocks/claude.js';
import { GEMINI_MOCK_KEY, startGeminiMock, type GeminiMock } from './mocks/gemini.js';
import { startResponsesMock, type ResponsesMock } from './mocks/openai-responses.js';
import { startRelay, type RelayFixture } from './relay-fixture.js';

/*
 * A relay with one upstream of each client format, for suites that probe the relay's edge: every request can be
 * sent through the relay lane (a listening server, over a socket) or through app.inject (Fastify's routes), and a
 * valid request reaches a mock upstream that checks it as the provider would.
 */

/** Which way a request reaches the relay. */
export type Via = 'lane' | 'inject';

export const VIAS: readonly Via[] = ['lane', 'inject'];

/** Models, by the upstream that serves them. */
export const EDGE_MODELS = {
  /** The OpenAI mock: chat, completions, embeddings, moderations, images, speech, rerank. */
  openai: 'gpt-4o-mini',
  /** The Claude mock (passthrough for Claude clients). */
  claude: 'claude-haiku-4-5',
  /** The Gemini mock (passthrough for Gemini clients). */
  gemini: 'gemini-2.0-flash',
  /** The Gemini mock, cutting its answer short. */
  geminiCut: 'gemini-mock-cut',
  /** The Responses mock (passthrough for Responses clients). */
  responses: 'gpt-4.1',
  /** A Gemini model on the OpenAI mock: Gemini clients through a converted channel. */
  geminiOnOpenAI: 'gemini-on-openai',
  /** A Claude model on the OpenAI mock: Claude clients through a converted channel. */
  claudeOnOpenAI: 'claude-on-openai',
  /** On an OpenAI-compatible channel without the Responses API: Responses clients converted to chat. */
  responsesOnChat: 'responses-on-chat',
} as const;

export interface EdgeRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface EdgeAnswer {
  status: number;
  headers: IncomingHttpHeaders | OutgoingHttpHeaders;
  text: string;
}

export interface EdgeFixture {
  relay: RelayFixture;
  /** An unlimited token of root's, with sk-. */
  key: string;
  openai: MockOpenAI;
  claude: ClaudeMock;
  gemini: GeminiMock;
  responses: ResponsesMock;
  /** Requests the upstreams have received so far. */
  upstreamCalls(): number;
  /** Lets go of the requests the mocks recorded (long runs), keeping their count. */
  forgetUpstreamRequests(): void;
  /** Errors the relay logged as its own failures (a crash it caught), in order. */
  relayErrors: unknown[];
  send(via: Via, req: EdgeRequest): Promise<EdgeAnswer>;
  close(): Promise<void>;
}

export async function startEdgeFixture(database: TestDatabase, env: Record<string, string> = {}): Promise<EdgeFixture> {
  const [openai, claude, gemini, responses] = await Promise.all([startMockOpenAI(), startClaudeMock(), startGeminiMock(), startResponsesMock()]);
  const relay = await startRelay(database, env);
  const m = EDGE_MODELS;
  await relay.channel({ type: 1, base_url: openai.url, key: openai.key, models: [m.openai, m.geminiOnOpenAI, m.claudeOnOpenAI].join(',') });
  await relay.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: m.claude });
  await relay.channel({ type: 24, base_url: gemini.url, key: GEMINI_MOCK_KEY, models: [m.gemini, m.geminiCut].join(',') });
  await relay.channel({ type: 1, base_url: responses.url, key: responses.key, models: m.responses });
  await relay.channel({ type: 40, base_url: openai.url, key: openai.key, models: m.responsesOnChat });
  await relay.setOption('ModelRatio', JSON.stringify(Object.fromEntries(Object.values(m).map((model) => [model, 1]))));
  const key = (await relay.token()).key;
  const relayErrors: unknown[] = [];
  const log = relay.t.app.ctx.log;
  const error = log.error.bind(log);
  log.error = ((...args: Parameters<typeof log.error>) => {
    relayErrors.push(args);
    return error(...args);
  }) as typeof log.error;

  async function send(via: Via, req: EdgeRequest): Promise<EdgeAnswer> {
    const method = req.method ?? 'POST';
    if (via === 'inject') {
      const res = await relay.t.app.inject({ method: method as 'POST', url: req.path, headers: req.headers, payload: req.body });
      return { status: res.statusCode, headers: res.headers, text: res.body };
    }
    const res = await request(`${relay.baseUrl}${req.path}`, { method: method as 'POST', headers: req.headers, body: req.body });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  const mocks = [openai, claude, gemini, responses];
  let forgotten = 0;
  const recorded = () => mocks.reduce((n, m) => n + m.requests.length, 0);

  return {
    relay,
    key,
    openai,
    claude,
    gemini,
    responses,
    upstreamCalls: () => forgotten + recorded(),
    forgetUpstreamRequests() {
      forgotten += recorded();
      for (const m of mocks) m.requests.length = 0;
    },
    relayErrors,
    send,
    async close() {
      await relay.close();
      await Promise.all([openai.close(), claude.close(), gemini.close(), responses.close()]);
    },
  };
}
