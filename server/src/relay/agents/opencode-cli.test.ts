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
 * opencode itself (opencode-ai, pinned in scripts/install-agents.mjs), unmodified and headless (`opencode run`), with
 * the gateway as an `@ai-sdk/openai-compatible` provider as its documentation gives it, bash, edit and web fetch
 * denied: it sends OpenAI chat completions (streamed with usage, its tools, a session id in headers) to OpenAI,
 * Claude and Gemini stand-ins; the stand-in asks for a read of a file in the scratch folder, opencode reads it and
 * sends it back, and the answer is what it prints. Beside the first turn it asks the same model for a session title;
 * every call is billed exactly.
 */

const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-sonnet-4-5';
const GEMINI = 'gemini-2.5-flash';

describeWithServices(['opencode-cli'], 'opencode through the gateway', () => {
  let gw: AgentGateway;
  let work: string;

  beforeAll(async () => {
    work = scratchFolder('opencode-work-');
    const read = { name: 'read', args: { filePath: path.join(work, 'a.txt') } };
    gw = await startAgentGateway([
      { type: 1, model: GPT, answer: openAIStandIn(GPT, read) },
      { type: 14, model: CLAUDE, answer: claudeStandIn(CLAUDE, read) },
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

  /** `opencode run` in a scratch HOME whose global config names the gateway as a provider. */
  const opencodeRun = (model: string) =>
    withScratchHome('opencode-home-', (home) => {
      const config = {
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        provider: {
          switchyard: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Switchyard',
            options: { baseURL: `${gw.server.url}/v1`, apiKey: '{env:SWITCHYARD_API_KEY}' },
            models: Object.fromEntries([GPT, CLAUDE, GEMINI, AZURE_MODEL, BEDROCK_MODEL, VERTEX_CLAUDE_MODEL, VERTEX_GEMINI_MODEL].map((m) => [m, { name: m }])),
          },
        },
        permission: { bash: 'deny', edit: 'deny', webfetch: 'deny' },
      };
      mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
      writeFileSync(path.join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify(config));
      return runAgent(agentCli('opencode')!, ['run', '-m', `switchyard/${model}`, PROMPT], work, { HOME: home, SWITCHYARD_API_KEY: gw.key });
    });

  it.each<[string, string, number, WireFormat]>([
    ['OpenAI', GPT, 0, 'openai'],
    ['Claude', CLAUDE, 1, 'claude'],
    ['Gemini', GEMINI, 2, 'gemini'],
    ['Azure', AZURE_MODEL, 3, 'openai'],
    ['Bedrock', BEDROCK_MODEL, 4, 'claude'],
    ['Vertex Claude', VERTEX_CLAUDE_MODEL, 5, 'claude'],
    ['Vertex Gemini', VERTEX_GEMINI_MODEL, 6, 'gemini'],
  ])('runs a tool round trip on the %s channel and prints the answer, each call billed', { timeout: 120_000 }, async (name, model, upstream, wire) => {
    const from = gw.upstreams[upstream].requests.length;
    const turns = await expectToolRoundTrip(gw, upstream, model, wire, () => opencodeRun(model));
    if (name === 'Azure') expectAzureCalls(gw, upstream, from);
    if (name === 'Bedrock') expectBedrockCalls(gw, upstream, from);
    if (name.startsWith('Vertex')) expectVertexCalls(gw, upstream, model, from);
    // The title call comes first, without tools; the turns offer opencode's read tool.
    expect(turns.some((t) => t.includes('"name":"read"'))).toBe(true);
  });

  // Read off the OpenAI round trip above: each opencode run takes ~10 s, mostly its own start.
  it('handed its turn to the OpenAI channel as sent: its tools and streamed usage', () => {
    const first = gw.upstreams[0].requests.find((r) => r.body.toString('utf8').includes('"tools"'))!;
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.headers.authorization).toBe('Bearer sk-stand-in');
    expect(first.json).toMatchObject({ model: GPT, stream: true, stream_options: { include_usage: true }, tool_choice: 'auto' });
    const tools = (first.json!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(tools).toEqual(expect.arrayContaining(['read', 'glob', 'grep']));
  });
});
