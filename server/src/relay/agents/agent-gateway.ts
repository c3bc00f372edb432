import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHANNEL_TYPE } from '@switchyard/shared';
import { expect } from 'vitest';
import { connect } from '../../db/connect.js';
import { startBedrockMock } from '../../test/mocks/bedrock.js';
import { splitSse } from '../../test/mocks/fixture-cases.js';
import { sseText, startScriptedUpstream, type ScriptedAnswer } from '../../test/mocks/scripted.js';
import type { PlainRequest } from '../../test/mocks/local-server.js';
import { startVertexMock, testServiceAccount } from '../../test/mocks/vertex.js';
import { startServerProcess, until, type ServerProcess } from '../../test/server-process.js';
import { ANSWER, carriesFileText, FILE_TEXT, PROMPT, TURN_COSTS, type WireFormat } from './stand-ins.js';

/*
 * The built gateway as the agent suites run it: its own process, one channel per stand-in (ratio 1, completion
 * ratio 2), and a root token for the agent. Bedrock and Vertex stand-ins answer behind their mocks' checks (SigV4;
 * the service account's token exchange and bearer), the others from a plain scripted upstream.
 */

export interface StandInChannel {
  /** Channel type (1 OpenAI, 3 Azure, 14 Claude, 24 Gemini, 33 AWS Bedrock, 41 Vertex AI). */
  type: number;
  model: string;
  answer: (req: PlainRequest) => ScriptedAnswer;
}

export interface StandInUpstream {
  url: string;
  requests: PlainRequest[];
  /** Vertex: the access tokens its token endpoint issued. */
  tokens?: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

export interface AgentGateway {
  server: ServerProcess;
  key: string;
  upstreams: StandInUpstream[];
  /** The consume logs of a model, once `count` are written. */
  logsOf(model: string, count: number): Promise<Array<{ quota: number; prompt_tokens: number; completion_tokens: number }>>;
  close(): Promise<void>;
}

/** Credentials the Bedrock stand-ins accept, and the Vertex stand-ins' project and region. */
const AWS = { accessKeyId: 'AKIASTANDIN000000000', secretAccessKey: 'stand-in/secret/access/key/000000000000', region: 'us-east-1' };
const VERTEX_PROJECT = 'agent-stand-in';
const VERTEX_REGION = 'us-east5';

/** A stand-in's upstream, and the channel fields that reach it with credentials it takes. */
async function startStandIn(c: StandInChannel): Promise<{ upstream: StandInUpstream; channel: Record<string, string> }> {
  const sse = (req: PlainRequest) => sseText(c.answer(req).sse ?? []);
  if (c.type === CHANNEL_TYPE.AWS) {
    const bedrock = await startBedrockMock({ ...AWS, script: (rec) => splitSse(sse(rec)) });
    return { upstream: bedrock, channel: { base_url: bedrock.url, key: `${AWS.accessKeyId}|${AWS.secretAccessKey}|${AWS.region}` } };
  }
  if (c.type === CHANNEL_TYPE.VERTEX_AI) {
    const account = testServiceAccount(VERTEX_PROJECT);
    const { publicKeyPem, clientEmail, projectId, privateKeyId } = account;
    const vertex = await startVertexMock({ publicKeyPem, clientEmail, projectId, privateKeyId, locations: [VERTEX_REGION], script: sse });
    return { upstream: vertex, channel: { base_url: vertex.url, key: account.key(`${vertex.url}/token`), other: VERTEX_REGION } };
  }
  const scripted = await startScriptedUpstream(c.answer);
  return { upstream: scripted, channel: { base_url: scripted.url, key: 'sk-stand-in' } };
}

export async function startAgentGateway(channels: StandInChannel[]): Promise<AgentGateway> {
  const standIns = await Promise.all(channels.map(startStandIn));
  const upstreams = standIns.map((s) => s.upstream);
  const server = await startServerProcess();
  const models = channels.map((c) => c.model);
  await server.consoleApi('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))) });
  await server.consoleApi('PUT', '/api/option/', { key: 'CompletionRatio', value: JSON.stringify(Object.fromEntries(models.map((m) => [m, 2]))) });
  for (const [i, c] of channels.entries()) {
    await server.consoleApi('POST', '/api/channel/', { type: c.type, name: `stand-in-${i}`, group: 'default', models: c.model, ...standIns[i].channel });
  }
  const token = await server.consoleApi('POST', '/api/token/', { name: 'agent', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  return {
    server,
    key: `sk-${String(token.key)}`,
    upstreams,
    async logsOf(model, count) {
      const db = await connect('', server.sqlitePath);
      try {
        const read = () => db.kysely.selectFrom('logs').select(['quota', 'prompt_tokens', 'completion_tokens']).where('type', '=', 2).where('model_name', '=', model).orderBy('id').execute();
        return await until(read, (rows) => rows.length >= count);
      } finally {
        await db.close();
      }
    },
    async close() {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
      server.cleanup();
      await Promise.all(upstreams.map((u) => u.close()));
    },
  };
}

export interface AgentRun {
  code: number | null;
  output: string;
}

/** Runs an agent's command to its end (killed after 80 s); resolves with its exit code and everything it printed. */
export function runAgent(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<AgentRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A scratch folder for the agent's work, holding a.txt. */
export function scratchFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  writeFileSync(path.join(dir, 'a.txt'), `${FILE_TEXT}\n`);
  return dir;
}

/** Runs `use` with a fresh HOME for the agent (its settings, sessions and caches), removed after. */
export async function withScratchHome<T>(prefix: string, use: (home: string) => Promise<T>): Promise<T> {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return await use(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Runs the agent once and checks the round trip on upstream `upstream`: it printed ANSWER and ended well, the
 * conversation's turns (those carrying PROMPT; side calls such as titles or routing may come too, even alongside a
 * turn) are at least two, the last carries the file's text back in the upstream's `wire` format, and every call is
 * logged at what the stand-in's answer to it costs (TURN_COSTS: the answer to a call carrying the tool's result, the
 * tool call to any other). Returns the conversation's turns for the suite's own checks.
 */
export async function expectToolRoundTrip(
  gw: AgentGateway,
  upstream: number,
  model: string,
  wire: WireFormat,
  run: () => Promise<AgentRun>,
): Promise<string[]> {
  const before = gw.upstreams[upstream].requests.length;
  const earlierLogs = (await gw.logsOf(model, 0)).length;
  const { code, output } = await run();
  expect(output).toContain(ANSWER);
  expect(code, output).toBe(0);
  const calls = gw.upstreams[upstream].requests.slice(before);
  const conversation = calls.map((c) => c.body.toString('utf8')).filter((body) => body.includes(PROMPT));
  expect(conversation.length).toBeGreaterThanOrEqual(2);
  expect(carriesFileText[wire](conversation.at(-1)!)).toBe(true);
  const logs = (await gw.logsOf(model, earlierLogs + calls.length)).slice(earlierLogs);
  expect(logs).toHaveLength(calls.length);
  const [callCost, answerCost] = TURN_COSTS;
  const owed = calls.map((c) => (carriesFileText[wire](c.body.toString('utf8')) ? answerCost : callCost));
  const byAmount = (a: number, b: number) => a - b;
  expect(logs.map((l) => l.quota).sort(byAmount)).toEqual(owed.sort(byAmount));
  return conversation;
}

/** The model an Azure channel serves in the agent suites, and the deployment path its calls go to. */
export const AZURE_MODEL = 'gpt-4.1-mini';
const AZURE_CHAT = /^\/openai\/deployments\/gpt-41-mini\/chat\/completions\?api-version=[\w-]+$/;

/** Every call an Azure stand-in received since `from` went to its deployment's chat path, with the channel's api-key. */
export function expectAzureCalls(gw: AgentGateway, upstream: number, from = 0): void {
  const calls = gw.upstreams[upstream].requests.slice(from);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(call.path).toMatch(AZURE_CHAT);
    expect(call.headers['api-key']).toBe('sk-stand-in');
    expect(call.headers.authorization).toBeUndefined();
  }
}

/** The model a Bedrock channel serves in the agent suites, and the InvokeModelWithResponseStream path of its US profile. */
export const BEDROCK_MODEL = 'claude-sonnet-4-20250514';
const BEDROCK_STREAM = '/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream';
const SIGV4 = new RegExp(`^AWS4-HMAC-SHA256 Credential=${AWS.accessKeyId}/\\d{8}/${AWS.region}/bedrock/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`);

/**
 * Every call a Bedrock stand-in received since `from` went to the model's stream operation, SigV4-signed with the
 * channel's key over the body as sent (the mock answers only a signature it recomputes), with Bedrock's Claude body.
 */
export function expectBedrockCalls(gw: AgentGateway, upstream: number, from = 0): void {
  const calls = gw.upstreams[upstream].requests.slice(from);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(call.path).toBe(BEDROCK_STREAM);
    expect(call.headers.authorization).toMatch(SIGV4);
    expect(call.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(call.body).digest('hex'));
    expect(call.headers['x-api-key']).toBeUndefined();
    expect(call.json).toMatchObject({ anthropic_version: 'bedrock-2023-05-31' });
    expect(call.json).not.toHaveProperty('model');
  }
}

/** The models Vertex channels serve in the agent suites (Claude through rawPredict, Gemini through generateContent). */
export const VERTEX_CLAUDE_MODEL = 'claude-sonnet-4-5-20250929';
export const VERTEX_GEMINI_MODEL = 'gemini-2.5-pro';
const VERTEX_MODELS = `/v1/projects/${VERTEX_PROJECT}/locations/${VERTEX_REGION}/publishers`;
const VERTEX_STREAM: Record<string, string> = {
  [VERTEX_CLAUDE_MODEL]: `${VERTEX_MODELS}/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict`,
  [VERTEX_GEMINI_MODEL]: `${VERTEX_MODELS}/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse`,
};

/**
 * Every call a Vertex stand-in received since `from` went to the model's stream action in the channel's project and
 * region, with a bearer its token endpoint issued for the service account's signed assertion.
 */
export function expectVertexCalls(gw: AgentGateway, upstream: number, model: string, from = 0): void {
  const { requests, tokens } = gw.upstreams[upstream];
  const calls = requests.slice(from);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(call.path).toBe(VERTEX_STREAM[model]);
    const bearer = /^Bearer (ya29\.\S+)$/.exec(call.headers.authorization ?? '')?.[1];
    expect(bearer && tokens?.has(bearer), String(call.headers.authorization)).toBe(true);
  }
}
