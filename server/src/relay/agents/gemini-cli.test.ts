import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentCli } from '../../test/service-catalog.js';
import { describeWithServices } from '../../test/services.js';
import {
  AZURE_MODEL,
  BEDROCK_MODEL,
  expectAzureCalls,
  expectBedrockCalls,
  expectToolRoundTrip,
  expectVertexCalls,
  runAgent,
  scratchFolder,
  startAgentGateway,
  withScratchHome,
  type AgentGateway,
  VERTEX_CLAUDE_MODEL,
  VERTEX_GEMINI_MODEL,
} from './agent-gateway.js';
import { claudeStandIn, geminiStandIn, openAIStandIn, PROMPT, type WireFormat } from './stand-ins.js';

/*
 * Gemini CLI itself (@google/gemini-cli, pinned in scripts/install-agents.mjs), unmodified and headless (`gemini -p`,
 * GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, an API-key sign-in in its settings, `--skip-trust` for a scratch
 * folder), through the built gateway to Gemini, Claude and OpenAI stand-ins: its streamed generateContent turns go to
 * a Gemini channel as they are and are converted for the others, the stand-in asks for its read_file tool on a file
 * in the scratch folder, the CLI reads it and sends the result back, and the answer is what it prints. Both turns
 * are billed exactly.
 */

const GEMINI = 'gemini-2.5-flash';
const CLAUDE = 'claude-sonnet-4-5';
const GPT = 'gpt-4o-mini';

describeWithServices(['gemini-cli'], 'Gemini CLI through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    work = scratchFolder('gemini-cli-work-');
    const read = { name: 'read_file', args: { file_path: path.join(work, 'a.txt') } };
    gw = await startAgentGateway([
      { type: 24, model: GEMINI, answer: geminiStandIn(GEMINI, read) },
      { type: 14, model: CLAUDE, answer: claudeStandIn(CLAUDE, read) },
      { type: 1, model: GPT, answer: openAIStandIn(GPT, read) },
      { type: 3, model: AZURE_MODEL, answer: openAIStandIn(AZURE_MODEL, read) },
      { type: 33, model: BEDROCK_MODEL, answer: claudeStandIn(BEDROCK_MODEL, read) },
      { type: 41, model: VERTEX_CLAUDE_MODEL, answer: claudeStandIn(VERTEX_CLAUDE_MODEL, read) },
      { type: 41, model: VERTEX_GEMINI_MODEL, answer: geminiStandIn(VERTEX_GEMINI_MODEL, read) },
    ]);
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const geminiP = (model: string) =>
    withScratchHome('gemini-cli-home-', (home) => {
      mkdirSync(path.join(home, '.gemini'));
      writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      const args = ['-p', PROMPT, '-m', model, '--skip-trust'];
      return runAgent(agentCli('gemini')!, args, work, { HOME: home, GEMINI_API_KEY: gw.key, GOOGLE_GEMINI_BASE_URL: gw.server.url });
    });

  it.each<[string, string, number, WireFormat]>([
    ['Gemini', GEMINI, 0, 'gemini'],
    ['Claude', CLAUDE, 1, 'claude'],
    ['OpenAI', GPT, 2, 'openai'],
    ['Azure', AZURE_MODEL, 3, 'openai'],
    ['Bedrock', BEDROCK_MODEL, 4, 'claude'],
    ['Vertex Claude', VERTEX_CLAUDE_MODEL, 5, 'claude'],
    ['Vertex Gemini', VERTEX_GEMINI_MODEL, 6, 'gemini'],
  ])('runs a tool round trip on the %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (name, model, upstream, wire) => {
    const from = gw.upstreams[upstream].requests.length;
    await expectToolRoundTrip(gw, upstream, model, wire, () => geminiP(model));
    if (name === 'Azure') expectAzureCalls(gw, upstream, from);
    if (name === 'Bedrock') expectBedrockCalls(gw, upstream, from);
    if (name.startsWith('Vertex')) expectVertexCalls(gw, upstream, model, from);
  });

  it('hands its turn to a Gemini channel as sent: its system instruction, tools and generation settings', { timeout: 120_000 }, async () => {
    const before = gw.upstreams[0].requests.length;
    await geminiP(GEMINI);
    const first = gw.upstreams[0].requests.slice(before).find((r) => r.body.toString('utf8').includes(PROMPT))!;
    expect(first.path).toBe(`/v1beta/models/${GEMINI}:streamGenerateContent?alt=sse`);
    expect(first.headers['x-goog-api-key']).toBe('sk-stand-in');
    expect(first.json).toMatchObject({ systemInstruction: expect.anything(), tools: [{ functionDeclarations: expect.any(Array) }], generationConfig: expect.anything() });
  });
});
