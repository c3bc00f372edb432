import { rmSync, writeFileSync } from 'node:fs';
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
import { COMPACTION_REQUEST } from '../formats/responses/compaction.js';
import { ANSWER, claudeStandIn, openAIStandIn, geminiStandIn, PROMPT, responsesStandIn, SUMMARY, type WireFormat } from './stand-ins.js';

/*
 * The Codex CLI itself (@openai/codex, pinned in scripts/install-agents.mjs), unmodified and headless (`codex exec`),
 * through the built gateway to OpenAI Responses, Claude and Gemini stand-ins: it sends its Responses turns (store off,
 * its tools in namespaces, hints it expects OpenAI to honour), which an OpenAI channel passes on as sent and the
 * others convert; the stand-in answers with a call of Codex's own exec_command tool that reads a file in the test's
 * scratch folder, Codex runs it in its read-only sandbox and sends the output back, and the stand-in's final answer
 * is what Codex prints. Both turns are billed exactly.
 */

const GPT = 'gpt-5-codex';
const CLAUDE = 'claude-sonnet-4-5';
const GEMINI = 'gemini-2.5-flash';
const READ = { name: 'exec_command', args: { cmd: 'cat a.txt' } };

describeWithServices(['codex-cli'], 'the Codex CLI through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    gw = await startAgentGateway([
      { type: 1, model: GPT, answer: responsesStandIn(GPT, READ) },
      { type: 14, model: CLAUDE, answer: claudeStandIn(CLAUDE, READ) },
      { type: 24, model: GEMINI, answer: geminiStandIn(GEMINI, READ) },
      { type: 3, model: AZURE_MODEL, answer: openAIStandIn(AZURE_MODEL, READ) },
      { type: 33, model: BEDROCK_MODEL, answer: claudeStandIn(BEDROCK_MODEL, READ) },
      { type: 41, model: VERTEX_CLAUDE_MODEL, answer: claudeStandIn(VERTEX_CLAUDE_MODEL, READ) },
      { type: 41, model: VERTEX_GEMINI_MODEL, answer: geminiStandIn(VERTEX_GEMINI_MODEL, READ) },
    ]);
    work = scratchFolder('codex-work-');
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** `codex exec` in a scratch HOME, with a model provider entry for the gateway as its documentation gives it. */
  const codexExec = (model: string) =>
    withScratchHome('codex-home-', (home) => {
      const config = [`model = "${model}"`, 'model_provider = "switchyard"', '', '[model_providers.switchyard]', 'name = "Switchyard"'];
      config.push(`base_url = "${gw.server.url}/v1"`, 'env_key = "SWITCHYARD_API_KEY"', 'wire_api = "responses"', '');
      writeFileSync(path.join(home, 'config.toml'), config.join('\n'));
      const args = ['exec', '--skip-git-repo-check', '-s', 'read-only', PROMPT];
      return runAgent(agentCli('codex')!, args, work, { HOME: home, CODEX_HOME: home, SWITCHYARD_API_KEY: gw.key });
    });

  it.each<[string, string, number, WireFormat]>([
    ['OpenAI', GPT, 0, 'responses'],
    ['Claude', CLAUDE, 1, 'claude'],
    ['Gemini', GEMINI, 2, 'gemini'],
    ['Azure', AZURE_MODEL, 3, 'openai'],
    ['Bedrock', BEDROCK_MODEL, 4, 'claude'],
    ['Vertex Claude', VERTEX_CLAUDE_MODEL, 5, 'claude'],
    ['Vertex Gemini', VERTEX_GEMINI_MODEL, 6, 'gemini'],
  ])('runs a tool round trip on the %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (name, model, upstream, wire) => {
    const from = gw.upstreams[upstream].requests.length;
    const turns = await expectToolRoundTrip(gw, upstream, model, wire, () => codexExec(model));
    if (name === 'Azure') expectAzureCalls(gw, upstream, from);
    if (name === 'Bedrock') expectBedrockCalls(gw, upstream, from);
    if (name.startsWith('Vertex')) expectVertexCalls(gw, upstream, model, from);
    // Codex makes no side calls: the two turns are all, and its own tool was offered.
    expect(turns).toHaveLength(2);
    expect(gw.upstreams[upstream].requests).toHaveLength(2);
    expect(turns[0]).toContain('exec_command');
  });

  it('with its built-in OpenAI provider pointed at the gateway, goes from WebSocket to HTTP at once and runs the round trip', { timeout: 120_000 }, async () => {
    // The set-up many gateway users have: openai_base_url, no provider entry. Codex then first asks to upgrade
    // GET /v1/responses to its WebSocket mode; the gateway's 426 sends it to HTTP without a retry.
    const started = Date.now();
    const { output } = await withScratchHome('codex-home-', async (home) => {
      writeFileSync(path.join(home, 'config.toml'), [`model = "${GPT}"`, `openai_base_url = "${gw.server.url}/v1"`, ''].join('\n'));
      const args = ['exec', '--skip-git-repo-check', '-s', 'read-only', PROMPT];
      let run: Awaited<ReturnType<typeof runAgent>> | undefined;
      await expectToolRoundTrip(gw, 0, GPT, 'responses', async () => (run = await runAgent(agentCli('codex')!, args, work, { HOME: home, CODEX_HOME: home, CODEX_API_KEY: gw.key })));
      return run!;
    });
    expect(output).not.toMatch(/Reconnecting|Falling back/);
    // A 404 instead costs five retries with backoff, about 6.5 s.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('compacts its history remotely on a Claude channel, which has no compaction of its own, and goes on from the summary', { timeout: 120_000 }, async () => {
    // Codex's built-in OpenAI provider compacts through the Responses API (a compaction_trigger item, one compaction
    // item back); a tiny auto-compaction limit makes it compact after the first answer.
    const before = gw.upstreams[1].requests.length;
    const earlierLogs = (await gw.logsOf(CLAUDE, 0)).length;
    const { code, output } = await withScratchHome('codex-home-', (home) => {
      const config = [`model = "${CLAUDE}"`, `openai_base_url = "${gw.server.url}/v1"`, 'model_auto_compact_token_limit = 50', ''];
      writeFileSync(path.join(home, 'config.toml'), config.join('\n'));
      const args = ['exec', '--skip-git-repo-check', '-s', 'read-only', PROMPT];
      return runAgent(agentCli('codex')!, args, work, { HOME: home, CODEX_HOME: home, CODEX_API_KEY: gw.key });
    });
    expect(output).not.toContain('Error running remote compact task');
    expect(output).toContain(ANSWER);
    expect(code, output).toBe(0);
    const bodies = gw.upstreams[1].requests.slice(before).map((r) => r.body.toString('utf8'));
    const asked = bodies.findIndex((b) => b.includes(COMPACTION_REQUEST.slice(0, 60)));
    expect(asked, 'a compaction reached the upstream').toBeGreaterThanOrEqual(0);
    expect(bodies.slice(asked + 1).some((b) => b.includes(SUMMARY)), 'a later turn starts from the summary').toBe(true);
    // The compaction is a call like any other: billed.
    expect((await gw.logsOf(CLAUDE, earlierLogs + bodies.length)).length - earlierLogs).toBe(bodies.length);
  });

  it('hands its turn to an OpenAI channel as sent, with the hints and identity Codex relies on', { timeout: 120_000 }, async () => {
    const before = gw.upstreams[0].requests.length;
    await codexExec(GPT);
    const [first] = gw.upstreams[0].requests.slice(before);
    expect(first.path).toBe('/v1/responses');
    expect(first.json).toMatchObject({ model: GPT, store: false, stream: true, include: ['reasoning.encrypted_content'], prompt_cache_key: expect.any(String) });
    expect(first.headers).toMatchObject({ authorization: 'Bearer sk-stand-in', originator: expect.any(String), 'session-id': first.json!.prompt_cache_key });
  });
});
