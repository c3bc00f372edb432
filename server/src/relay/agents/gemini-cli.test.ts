import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentCli } from '../../test/service-catalog.js';
import { describeWithServices } from '../../test/services.js';
import { runAgent, startAgentGateway, type AgentGateway } from './agent-gateway.js';
import { ANSWER, claudeStandIn, openAIStandIn, TURN_COSTS } from './stand-ins.js';

/*
 * Gemini CLI itself (@google/gemini-cli, pinned in scripts/install-agents.mjs), unmodified and headless (`gemini -p`,
 * GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, an API-key sign-in in its settings, `--skip-trust` for a scratch
 * folder), through the built gateway to Claude and OpenAI stand-ins: its streamed generateContent turns are converted,
 * the stand-in asks for its read_file tool on a file in the scratch folder, the CLI reads it and sends the result
 * back, and the answer is what it prints. Both turns are billed exactly.
 */

const CLAUDE = 'claude-sonnet-4-5';
const GPT = 'gpt-4o-mini';
const FILE_TEXT = 'hello from the scratch folder';

describeWithServices(['gemini-cli'], 'Gemini CLI through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'gemini-cli-work-'));
    writeFileSync(path.join(work, 'a.txt'), `${FILE_TEXT}\n`);
    const read = { name: 'read_file', args: { file_path: path.join(work, 'a.txt') } };
    gw = await startAgentGateway([
      { type: 14, model: CLAUDE, answer: claudeStandIn(CLAUDE, read) },
      { type: 1, model: GPT, answer: openAIStandIn(GPT, read) },
    ]);
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function geminiP(model: string) {
    const home = mkdtempSync(path.join(os.tmpdir(), 'gemini-cli-home-'));
    mkdirSync(path.join(home, '.gemini'));
    writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
    try {
      const args = ['-p', 'What does a.txt say?', '-m', model, '--skip-trust'];
      return await runAgent(agentCli('gemini')!, args, work, { HOME: home, GEMINI_API_KEY: gw.key, GOOGLE_GEMINI_BASE_URL: gw.server.url });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  it.each([
    ['Claude', CLAUDE, 0, (body: string) => body.includes('tool_result') && body.includes(FILE_TEXT)],
    ['OpenAI', GPT, 1, (body: string) => body.includes('"role":"tool"') && body.includes(FILE_TEXT)],
  ])('runs a tool round trip on the %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (_name, model, upstream, carriesResult) => {
    const before = gw.upstreams[upstream].requests.length;
    const run = await geminiP(model);
    expect(run.output).toContain(ANSWER);
    expect(run.code, run.output).toBe(0);
    const turns = gw.upstreams[upstream].requests.slice(before);
    // Its side calls (the model router, summaries) may come too; the conversation's two turns came here.
    const conversation = turns.filter((t) => t.body.toString('utf8').includes('What does a.txt say?'));
    expect(conversation.length).toBeGreaterThanOrEqual(2);
    expect(carriesResult(conversation.at(-1)!.body.toString('utf8'))).toBe(true);
    const logs = await gw.logsOf(model, turns.length);
    expect(logs).toHaveLength(turns.length);
    expect(logs.slice(-2).map((l) => l.quota)).toEqual(TURN_COSTS);
  });
});
