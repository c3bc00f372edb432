import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type ApiError } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing, setPrices } from '../test/billing.js';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { BEDROCK_MOCK_INPUT_TOKENS, startBedrockMock, type BedrockMock } from '../test/mocks/bedrock.js';
import { startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { startGeminiMock, type GeminiMock } from '../test/mocks/gemini.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../test/mocks/scripted.js';
import { startVertexMock, testServiceAccount, VERTEX_MOCK_COUNTS, type VertexMock } from '../test/mocks/vertex.js';
import { claudeToChat } from './formats/claude/to-chat.js';
import type { ClaudeRequest } from './formats/claude/types.js';
import { countChatPromptTokens } from './tokenizer.js';

/*
 * count_tokens (Claude), :countTokens (Gemini) and /v1/responses/input_tokens (Responses): asked of the upstream
 * where it counts, with the channel choice and model mapping of a relayed call, free; counted here elsewhere; 404
 * for a model no channel serves.
 */

const CLAUDE = 'claude-haiku-4-5';
const CLAUDE_ALIAS = 'claude-alias';
const CLAUDE_FAILING = 'claude-mock-server-error';
const BEDROCK = 'claude-sonnet-4-5-20250929';
const VERTEX_CLAUDE = 'claude-sonnet-4@20250514';
const VERTEX_GEMINI = 'gemini-2.5-pro';
const GEMINI = 'gemini-2.5-flash';
const GPT = 'gpt-4o-mini';
/** The Claude mock's count_tokens fixture and the Gemini mock's countTokens fixture. */
const CLAUDE_MOCK_COUNT = 21;
const GEMINI_MOCK_COUNT = 8;

const question = [{ role: 'user' as const, content: 'How many tokens is this question?' }];

describe.each(testDatabases(['sqlite']))('token counts on $name', (database) => {
  let f: RelayFixture;
  let claude: ClaudeMock;
  let gemini: GeminiMock;
  let bedrock: BedrockMock;
  let vertex: VertexMock;
  let openai: ScriptedUpstream;
  let key: string;
  const { free } = billing(() => f);
  const claudeSdk = () => new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
  const geminiSdk = () => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.baseUrl } });

  beforeAll(async () => {
    const account = testServiceAccount('count-project');
    const aws = { accessKeyId: 'AKIAMOCKCOUNT0000001', secretAccessKey: 'mockSecretKeyForTheCountTokensTests00000', region: 'us-east-1' };
    [claude, gemini, bedrock, vertex, openai] = await Promise.all([
      startClaudeMock(),
      startGeminiMock(),
      startBedrockMock(aws),
      startVertexMock({ keyPair: { publicKey: account.publicKeyPem }, clientEmail: account.clientEmail, projectId: account.projectId }),
      startScriptedUpstream(),
    ]);
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries([CLAUDE, CLAUDE_ALIAS, CLAUDE_FAILING, BEDROCK, VERTEX_CLAUDE, VERTEX_GEMINI, GEMINI, GPT].map((m) => [m, { ratio: 1, completion: 1 }])));
    await f.channel({ type: 14, base_url: claude.url, key: claude.key, models: [CLAUDE, CLAUDE_ALIAS, CLAUDE_FAILING].join(','), model_mapping: JSON.stringify({ [CLAUDE_ALIAS]: CLAUDE }), auto_ban: 0 });
    await f.channel({ type: 24, base_url: gemini.url, key: gemini.key, models: GEMINI });
    await f.channel({ type: 33, base_url: bedrock.url, key: `${aws.accessKeyId}|${aws.secretAccessKey}|${aws.region}`, models: BEDROCK });
    await f.channel({ type: 41, base_url: vertex.url, key: account.key(`${vertex.url}/token`), other: 'us-east5', models: [VERTEX_CLAUDE, VERTEX_GEMINI].join(',') });
    await f.channel({ type: 1, base_url: openai.url, key: 'sk-openai-scripted', models: GPT });
    key = (await f.token()).key;
  });

  afterAll(async () => {
    await f.close();
    await Promise.all([claude, gemini, bedrock, vertex, openai].map((m) => m.close()));
  });

  describe('Claude count_tokens', () => {
    it('asks Anthropic with the channel key and the mapped model, without the generation fields, free of charge', async () => {
      let count = 0;
      await free(async () => {
        count = (await claudeSdk().messages.countTokens({ model: CLAUDE_ALIAS, system: 'Be brief.', messages: question })).input_tokens;
      });
      expect(count).toBe(CLAUDE_MOCK_COUNT);
      const req = claude.requests.at(-1)!;
      expect(req.path).toBe('/v1/messages/count_tokens');
      expect(req.headers['x-api-key']).toBe(claude.key);
      expect(req.json).toEqual({ model: CLAUDE, system: 'Be brief.', messages: question });
    });

    it('asks Bedrock’s CountTokens with the InvokeModel body, by foundation-model id', async () => {
      expect((await claudeSdk().messages.countTokens({ model: BEDROCK, messages: question })).input_tokens).toBe(BEDROCK_MOCK_INPUT_TOKENS);
      expect(bedrock.requests.at(-1)!.path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/count-tokens');
    });

    it('asks Vertex’s count-tokens:rawPredict for a Claude model', async () => {
      expect((await claudeSdk().messages.countTokens({ model: VERTEX_CLAUDE, messages: question })).input_tokens).toBe(VERTEX_MOCK_COUNTS.anthropic);
      const req = vertex.requests.at(-1)!;
      expect(req.path).toContain('/publishers/anthropic/models/count-tokens:rawPredict');
      expect(req.json).toMatchObject({ model: VERTEX_CLAUDE, messages: question });
    });

    it('asks Gemini’s countTokens, converted, on a Gemini channel', async () => {
      expect((await claudeSdk().messages.countTokens({ model: GEMINI, messages: question })).input_tokens).toBe(GEMINI_MOCK_COUNT);
      const req = gemini.requests.at(-1)!;
      expect(req.path).toBe(`/v1beta/models/${GEMINI}:countTokens`);
      expect(req.json).toMatchObject({ generateContentRequest: { model: `models/${GEMINI}`, contents: [{ role: 'user', parts: [{ text: question[0].content }] }] } });
    });

    it('counts here with the model family’s tokenizer where the channel does not count (OpenAI chat)', async () => {
      const before = openai.requests.length;
      const body = { model: GPT, system: 'Be brief.', messages: question };
      const count = (await claudeSdk().messages.countTokens(body)).input_tokens;
      expect(count).toBe(countChatPromptTokens(claudeToChat(body as unknown as ClaudeRequest) as unknown as Record<string, unknown>, GPT));
      expect(openai.requests.length).toBe(before);
    });

    it('counts here when the upstream cannot answer', async () => {
      const count = (await claudeSdk().messages.countTokens({ model: CLAUDE_FAILING, messages: question })).input_tokens;
      expect(count).toBe(countChatPromptTokens(claudeToChat({ model: CLAUDE_FAILING, messages: question } as unknown as ClaudeRequest) as unknown as Record<string, unknown>, CLAUDE_FAILING));
    });

    it('answers a model no channel serves with a Claude-shaped 404', async () => {
      const err = (await claudeSdk()
        .messages.countTokens({ model: 'no-such-model', messages: question })
        .then(
          () => null,
          (e: unknown) => e,
        )) as { status: number; error: { error: { type: string } } };
      expect(err.status).toBe(404);
      expect(err.error.error.type).toBe('not_found_error');
    });
  });

  describe('Gemini countTokens', () => {
    it('passes a Gemini client’s request to a Gemini channel', async () => {
      const resp = await geminiSdk().models.countTokens({ model: GEMINI, contents: 'How many tokens?' });
      expect(resp.totalTokens).toBe(GEMINI_MOCK_COUNT);
      expect(gemini.requests.at(-1)!.headers['x-goog-api-key']).toBe(gemini.key);
    });

    it('asks Vertex’s countTokens for a Gemini model', async () => {
      expect((await geminiSdk().models.countTokens({ model: VERTEX_GEMINI, contents: 'How many tokens?' })).totalTokens).toBe(VERTEX_MOCK_COUNTS.google);
      expect(vertex.requests.at(-1)!.path).toContain(`/publishers/google/models/${VERTEX_GEMINI}:countTokens`);
    });

    it('asks Anthropic, converted, on a Claude channel', async () => {
      expect((await geminiSdk().models.countTokens({ model: CLAUDE, contents: 'How many tokens?' })).totalTokens).toBe(CLAUDE_MOCK_COUNT);
      expect(claude.requests.at(-1)!.json).toMatchObject({ model: CLAUDE, messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens?' }] }] });
    });

    it('answers a model no channel serves with a Gemini-shaped 404', async () => {
      const err = await geminiSdk()
        .models.countTokens({ model: 'no-such-model', contents: 'Hi' })
        .then(
          () => null,
          (e: unknown) => e as ApiError,
        );
      expect(err?.status).toBe(404);
      expect(JSON.parse(err!.message).error.status).toBe('NOT_FOUND');
    });
  });

  describe('Responses input_tokens', () => {
    it('asks OpenAI’s /v1/responses/input_tokens on an OpenAI channel', async () => {
      openai.next.push({ json: { object: 'response.input_tokens', input_tokens: 77 } });
      const resp = await f.client(key).responses.inputTokens.count({ model: GPT, input: 'How many tokens?' });
      expect(resp).toEqual({ object: 'response.input_tokens', input_tokens: 77 });
      const req = openai.requests.at(-1)!;
      expect(req.path).toBe('/v1/responses/input_tokens');
      expect(req.headers.authorization).toBe('Bearer sk-openai-scripted');
    });

    it('asks Anthropic, converted, on a Claude channel', async () => {
      const resp = await f.client(key).responses.inputTokens.count({ model: CLAUDE, input: 'How many tokens?' });
      expect(resp.input_tokens).toBe(CLAUDE_MOCK_COUNT);
    });

    it('answers a model no channel serves with 404 model_not_found', async () => {
      const err = (await f
        .client(key)
        .responses.inputTokens.count({ model: 'no-such-model', input: 'Hi' })
        .then(
          () => null,
          (e: unknown) => e,
        )) as { status: number; code: string };
      expect(err.status).toBe(404);
      expect(err.code).toBe('model_not_found');
    });
  });
});
