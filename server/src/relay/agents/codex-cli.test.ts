import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentCli } from '../../test/service-catalog.js';
import { describeWithServices } from '../../test/services.js';
import { runAgent, startAgentGateway, type AgentGateway } from './agent-gateway.js';
import { ANSWER, claudeStandIn, geminiStandIn, TURN_COSTS } from './stand-ins.js';

/*
 * The Codex CLI itself (@openai/codex, pinned in scripts/install-agents.mjs), unmodified and headless (`codex exec`),
 * through the built gateway to Claude and Gemini stand-ins: it sends its Responses turns (store off, its tools in
 * namespaces, hints it expects OpenAI to honour), the stand-in answers with a call of Codex's own exec_command tool
 * that reads a file in the test's scratch folder, Codex runs it in its read-only sandbox and sends the output back,
 * and the stand-in's final answer is what Codex prints. Both turns are billed exactly.
 */

const CLAUDE = 'claude-sonnet-4-5';
const GEMINI = 'gemini-2.5-flash';
const FILE_TEXT = 'hello from the scratch folder';
const READ = { name: 'exec_command', args: { cmd: 'cat a.txt' } };

describeWithServices(['codex-cli'], 'the Codex CLI through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    gw = await startAgentGateway([
      { type: 14, model: CLAUDE, answer: claudeStandIn(CLAUDE, READ) },
      { type: 24, model: GEMINI, answer: geminiStandIn(GEMINI, READ) },
    ]);
    work = mkdtempSync(path.join(os.tmpdir(), 'codex-work-'));
    writeFileSync(path.join(work, 'a.txt'), `${FILE_TEXT}\n`);
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** `codex exec` in a scratch HOME, with a model provider entry for the gateway as its documentation gives it. */
  async function codexExec(model: string) {
    const home = mkdtempSync(path.join(os.tmpdir(), 'codex-home-'));
    const config = [`model = "${model}"`, 'model_provider = "switchyard"', '', '[model_providers.switchyard]', 'name = "Switchyard"'];
    config.push(`base_url = "${gw.server.url}/v1"`, 'env_key = "SWITCHYARD_API_KEY"', 'wire_api = "responses"', '');
    writeFileSync(path.join(home, 'config.toml'), config.join('\n'));
    try {
      return await runAgent(agentCli('codex')!, ['exec', '--skip-git-repo-check', '-s', 'read-only', 'What does a.txt say?'], work, { HOME: home, CODEX_HOME: home, SWITCHYARD_API_KEY: gw.key });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  it.each([
    ['Claude', CLAUDE, 0, (body: string) => body.includes('tool_result') && body.includes(FILE_TEXT)],
    ['Gemini', GEMINI, 1, (body: string) => body.includes('functionResponse') && body.includes(FILE_TEXT)],
  ])('runs a tool round trip on the %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (_name, model, upstream, carriesResult) => {
    const before = gw.upstreams[upstream].requests.length;
    const run = await codexExec(model);
    expect(run.output).toContain(ANSWER);
    expect(run.code, run.output).toBe(0);
    const turns = gw.upstreams[upstream].requests.slice(before);
    expect(turns).toHaveLength(2);
    // The file Codex read went back up as the call's result.
    expect(carriesResult(turns[1].body.toString('utf8'))).toBe(true);
    expect(turns[0].body.toString('utf8')).toContain('exec_command');
    expect((await gw.logsOf(model, 2)).map((l) => l.quota)).toEqual(TURN_COSTS);
  });
});
