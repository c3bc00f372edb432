import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../../db/connect.js';
import { startScriptedUpstream, type ScriptedAnswer, type ScriptedUpstream } from '../../test/mocks/scripted.js';
import type { PlainRequest } from '../../test/mocks/local-server.js';
import { agentCli } from '../../test/service-catalog.js';
import { describeWithServices } from '../../test/services.js';
import { startServerProcess, until, type ServerProcess } from '../../test/server-process.js';

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
const ANSWER = 'The file says hello.';
/** Usage each stand-in reports: 100 in, 12 out for the call, 6 out for the answer. */
const COST = { call: 100 + 12 * 2, answer: 100 + 6 * 2 };

const claudeFrame = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/** A Claude stand-in: a call of exec_command first, the answer once the call's result comes back. */
function claudeTurn(req: PlainRequest): ScriptedAnswer {
  const messages = (req.json?.messages ?? []) as Array<{ content: unknown }>;
  const last = messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((c: { type?: string }) => c.type === 'tool_result');
  const start = claudeFrame('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: CLAUDE, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } });
  const body = answered
    ? [
        claudeFrame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        claudeFrame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ANSWER } }),
        claudeFrame('content_block_stop', { index: 0 }),
        claudeFrame('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } }),
      ]
    : [
        claudeFrame('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_read', name: 'exec_command', input: {} } }),
        claudeFrame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ cmd: 'cat a.txt' }) } }),
        claudeFrame('content_block_stop', { index: 0 }),
        claudeFrame('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } }),
      ];
  return { sse: [start, ...body, claudeFrame('message_stop', {})] };
}

/** A Gemini stand-in, alike. */
function geminiTurn(req: PlainRequest): ScriptedAnswer {
  const contents = (req.json?.contents ?? []) as Array<{ parts?: Array<Record<string, unknown>> }>;
  const answered = contents.at(-1)?.parts?.some((p) => 'functionResponse' in p) === true;
  const parts = answered ? [{ text: ANSWER }] : [{ functionCall: { name: 'exec_command', args: { cmd: 'cat a.txt' } } }];
  const usageMetadata = { promptTokenCount: 100, candidatesTokenCount: answered ? 6 : 12, totalTokenCount: answered ? 106 : 112 };
  return { sse: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: GEMINI }] };
}

/** `codex exec` in a scratch HOME and working folder, against the gateway; resolves with its exit code and output. */
function codexExec(gateway: string, key: string, model: string, work: string): Promise<{ code: number | null; output: string }> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'codex-home-'));
  writeFileSync(
    path.join(home, 'config.toml'),
    [`model = "${model}"`, 'model_provider = "switchyard"', '', '[model_providers.switchyard]', 'name = "Switchyard"', `base_url = "${gateway}/v1"`, 'env_key = "SWITCHYARD_API_KEY"', 'wire_api = "responses"', ''].join('\n'),
  );
  return new Promise((resolve) => {
    const child = spawn(agentCli('codex')!, ['exec', '--skip-git-repo-check', '-s', 'read-only', 'What does a.txt say?'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, SWITCHYARD_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

describeWithServices(['codex-cli'], 'the Codex CLI through the gateway', () => {
  let server: ServerProcess;
  let claude: ScriptedUpstream;
  let gemini: ScriptedUpstream;
  let key: string;
  let work: string;

  beforeAll(async () => {
    [claude, gemini] = await Promise.all([startScriptedUpstream(claudeTurn), startScriptedUpstream(geminiTurn)]);
    server = await startServerProcess();
    await server.consoleApi('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [CLAUDE]: 1, [GEMINI]: 1 }) });
    await server.consoleApi('PUT', '/api/option/', { key: 'CompletionRatio', value: JSON.stringify({ [CLAUDE]: 2, [GEMINI]: 2 }) });
    await server.consoleApi('POST', '/api/channel/', { type: 14, name: 'claude', group: 'default', base_url: claude.url, key: 'sk-ant-standin', models: CLAUDE });
    await server.consoleApi('POST', '/api/channel/', { type: 24, name: 'gemini', group: 'default', base_url: gemini.url, key: 'AIza-standin', models: GEMINI });
    const token = await server.consoleApi('POST', '/api/token/', { name: 'codex', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    key = `sk-${String(token.key)}`;
    work = mkdtempSync(path.join(os.tmpdir(), 'codex-work-'));
    writeFileSync(path.join(work, 'a.txt'), `${FILE_TEXT}\n`);
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    server?.cleanup();
    await Promise.all([claude?.close(), gemini?.close()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The consume logs of a model, once `count` are written. */
  async function logsOf(model: string, count: number) {
    const db = await connect('', server.sqlitePath);
    try {
      const read = () => db.kysely.selectFrom('logs').select(['quota', 'prompt_tokens', 'completion_tokens']).where('type', '=', 2).where('model_name', '=', model).orderBy('id').execute();
      return await until(read, (rows) => rows.length >= count);
    } finally {
      await db.close();
    }
  }

  it.each([
    ['Claude', CLAUDE, () => claude, (body: string) => body.includes('tool_result') && body.includes(FILE_TEXT)],
    ['Gemini', GEMINI, () => gemini, (body: string) => body.includes('functionResponse') && body.includes(FILE_TEXT)],
  ])('runs a tool round trip on a %s channel and prints the answer, each turn billed', { timeout: 120_000 }, async (_name, model, upstream, carriesResult) => {
    const before = upstream().requests.length;
    const run = await codexExec(server.url, key, model, work);
    expect(run.output).toContain(ANSWER);
    expect(run.code, run.output).toBe(0);
    const turns = upstream().requests.slice(before);
    expect(turns).toHaveLength(2);
    // The file Codex read went back up as the call's result.
    expect(carriesResult(turns[1].body.toString('utf8'))).toBe(true);
    // Codex's own tools, namespaced ones flattened (multi_agent_v1__spawn_agent), reached the stand-in.
    expect(turns[0].body.toString('utf8')).toContain('exec_command');
    const logs = await logsOf(model, 2);
    expect(logs.map((l) => l.quota)).toEqual([COST.call, COST.answer]);
  });
});
