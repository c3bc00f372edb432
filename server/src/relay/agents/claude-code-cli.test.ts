import { rmSync } from 'node:fs';
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
 * Claude Code itself (@anthropic-ai/claude-code, pinned in scripts/install-agents.mjs), unmodified and headless
 * (`claude -p`, ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN as its gateway documentation gives them, its tools held to
 * Read), through the built gateway to Claude, OpenAI and Gemini stand-ins: every turn carries its betas, adaptive
 * thinking, context management and a system reminder inside the messages, which a Claude channel passes on as sent
 * and the converted channels must take; the stand-in asks for a Read of a file in the scratch folder, Claude Code
 * reads it and sends it back, and the answer is what it prints. Both turns are billed exactly.
 */

const CLAUDE = 'claude-sonnet-4-5';
const GPT = 'gpt-4o-mini';
const GEMINI = 'gemini-2.5-flash';

describeWithServices(['claude-code-cli'], 'Claude Code through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    work = scratchFolder('claude-code-work-');
    const read = { name: 'Read', args: { file_path: path.join(work, 'a.txt') } };
    gw = await startAgentGateway([
      { type: 14, model: CLAUDE, answer: claudeStandIn(CLAUDE, read) },
      { type: 1, model: GPT, answer: openAIStandIn(GPT, read) },
      { type: 24, model: GEMINI, answer: geminiStandIn(GEMINI, read) },
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

  const claudeP = (model: string) =>
    withScratchHome('claude-code-home-', (home) => {
      const args = ['-p', PROMPT, '--model', model, '--permission-mode', 'dontAsk', '--allowedTools', 'Read'];
      return runAgent(agentCli('claude')!, args, work, { HOME: home, ANTHROPIC_BASE_URL: gw.server.url, ANTHROPIC_AUTH_TOKEN: gw.key });
    });

  it.each<[string, string, number, WireFormat]>([
    ['Claude', CLAUDE, 0, 'claude'],
    ['OpenAI', GPT, 1, 'openai'],
    ['Gemini', GEMINI, 2, 'gemini'],
    ['Azure', AZURE_MODEL, 3, 'openai'],
    ['Bedrock', BEDROCK_MODEL, 4, 'claude'],
    ['Vertex Claude', VERTEX_CLAUDE_MODEL, 5, 'claude'],
    ['Vertex Gemini', VERTEX_GEMINI_MODEL, 6, 'gemini'],
  ])('runs a tool round trip on the %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (name, model, upstream, wire) => {
    const from = gw.upstreams[upstream].requests.length;
    await expectToolRoundTrip(gw, upstream, model, wire, () => claudeP(model));
    if (name === 'Azure') expectAzureCalls(gw, upstream, from);
    if (name === 'Bedrock') expectBedrockCalls(gw, upstream, from);
    if (name.startsWith('Vertex')) expectVertexCalls(gw, upstream, model, from);
  });

  it('hands its turn to a Claude channel as sent: its betas, thinking, context management and session metadata', { timeout: 120_000 }, async () => {
    const before = gw.upstreams[0].requests.length;
    await claudeP(CLAUDE);
    const first = gw.upstreams[0].requests.slice(before).find((r) => r.body.toString('utf8').includes(PROMPT))!;
    expect(first.path).toBe('/v1/messages');
    expect(first.headers['x-api-key']).toBe('sk-stand-in');
    expect(String(first.headers['anthropic-beta']).split(',')).toEqual(expect.arrayContaining(['claude-code-20250219', 'context-management-2025-06-27']));
    expect(first.json).toMatchObject({ model: CLAUDE, stream: true, thinking: { type: 'enabled' }, context_management: { edits: expect.any(Array) } });
    expect(JSON.parse(String((first.json!.metadata as { user_id: string }).user_id))).toMatchObject({ session_id: expect.any(String) });
  });
});
