import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentCli } from '../../test/service-catalog.js';
import { describeWithServices } from '../../test/services.js';
import { runAgent, startAgentGateway, type AgentGateway } from './agent-gateway.js';
import { ANSWER, geminiStandIn, openAIStandIn, TURN_COSTS } from './stand-ins.js';

/*
 * Claude Code itself (@anthropic-ai/claude-code, pinned in scripts/install-agents.mjs), unmodified and headless
 * (`claude -p`, ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN as its gateway documentation gives them, its tools held to
 * Read), through the built gateway to OpenAI and Gemini stand-ins: every turn carries its betas, adaptive thinking,
 * context management and a system reminder inside the messages, which the converted channels must take; the
 * stand-in asks for a Read of a file in the scratch folder, Claude Code reads it and sends it back, and the answer
 * is what it prints. Both turns are billed exactly.
 */

const GPT = 'gpt-4o-mini';
const GEMINI = 'gemini-2.5-flash';
const FILE_TEXT = 'hello from the scratch folder';

describeWithServices(['claude-code-cli'], 'Claude Code through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'claude-code-work-'));
    writeFileSync(path.join(work, 'a.txt'), `${FILE_TEXT}\n`);
    const read = { name: 'Read', args: { file_path: path.join(work, 'a.txt') } };
    gw = await startAgentGateway([
      { type: 1, model: GPT, answer: openAIStandIn(GPT, read) },
      { type: 24, model: GEMINI, answer: geminiStandIn(GEMINI, read) },
    ]);
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function claudeP(model: string) {
    const home = mkdtempSync(path.join(os.tmpdir(), 'claude-code-home-'));
    try {
      const args = ['-p', 'What does a.txt say?', '--model', model, '--permission-mode', 'dontAsk', '--allowedTools', 'Read'];
      return await runAgent(agentCli('claude')!, args, work, { HOME: home, ANTHROPIC_BASE_URL: gw.server.url, ANTHROPIC_AUTH_TOKEN: gw.key });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  it.each([
    ['OpenAI', GPT, 0, (body: string) => body.includes('"role":"tool"') && body.includes(FILE_TEXT)],
    ['Gemini', GEMINI, 1, (body: string) => body.includes('functionResponse') && body.includes(FILE_TEXT)],
  ])('runs a tool round trip on the %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (_name, model, upstream, carriesResult) => {
    const before = gw.upstreams[upstream].requests.length;
    const run = await claudeP(model);
    expect(run.output).toContain(ANSWER);
    expect(run.code, run.output).toBe(0);
    const turns = gw.upstreams[upstream].requests.slice(before);
    // Its side calls (titles, summaries) may go to other models; the conversation's two turns came here.
    const conversation = turns.filter((t) => t.body.toString('utf8').includes('What does a.txt say?'));
    expect(conversation.length).toBeGreaterThanOrEqual(2);
    expect(carriesResult(conversation.at(-1)!.body.toString('utf8'))).toBe(true);
    const logs = await gw.logsOf(model, turns.length);
    expect(logs).toHaveLength(turns.length);
    expect(logs.slice(-2).map((l) => l.quota)).toEqual(TURN_COSTS);
  });
});
