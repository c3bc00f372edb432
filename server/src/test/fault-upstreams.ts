import { startMockOpenAI, type MockBehaviour, type MockOpenAI } from './mock-openai.js';
import { startClaudeMock, type ClaudeMock } from './mocks/claude.js';
import { startGeminiMock, type GeminiMock } from './mocks/gemini.js';
import { closedPort, startBlackHole, type BlackHole } from './unreachable.js';

/*
 * Upstreams of the three wire formats (OpenAI chat, Claude Messages, Gemini generateContent), each able to fail in
 * every way the fault matrix names. `target(wire, fault)` gives the channel fields (type, base URL, key) and the
 * upstream model name that make a channel meet that fault. Timing faults are mock options (one mock per option);
 * content faults are fixture cases chosen by the upstream model name (model_mapping sends the call there).
 */

export type Wire = 'openai' | 'claude' | 'gemini';

export type Fault =
  | 'none'
  | 'status-500'
  | 'status-429'
  | 'refused'
  | 'connect-timeout'
  | 'first-byte-timeout'
  | 'idle-timeout'
  | 'cut'
  | 'malformed'
  | 'slow-head'
  | 'stall';

export interface UpstreamTarget {
  type: number;
  base_url: string;
  key: string;
  /** The model name the channel maps the call's model to. */
  model: string;
}

/** Usage the mocks report for their default answer (prompt, completion), per wire. */
export const DEFAULT_USAGE: Record<Wire, { prompt: number; completion: number }> = {
  openai: { prompt: 11, completion: 7 },
  claude: { prompt: 21, completion: 9 },
  gemini: { prompt: 8, completion: 7 },
};

const CHANNEL_TYPE: Record<Wire, number> = { openai: 1, claude: 14, gemini: 24 };

/** How long a "slow" upstream holds back its first byte or goes silent: far past any timeout the matrix sets. */
const HOLD_MS = 30_000;

interface Mocks {
  openai: Partial<Record<Fault, MockOpenAI>>;
  claude: Partial<Record<'none' | 'slow' | 'stall', ClaudeMock>>;
  gemini: Partial<Record<'none' | 'slow' | 'stall', GeminiMock>>;
}

const OPENAI_BEHAVIOUR: Partial<Record<Fault, MockBehaviour>> = {
  none: {},
  'status-500': { fail: { status: 500 } },
  'status-429': { fail: { status: 429, retryAfter: '1' } },
  cut: { cutAfter: 2 },
  malformed: { malformed: true },
  'first-byte-timeout': { headDelayMs: HOLD_MS },
  'slow-head': { headDelayMs: HOLD_MS },
  'idle-timeout': { stallAfter: 2 },
  stall: { stallAfter: 2 },
};

/** Fixture cases of the Claude and Gemini mocks, by fault. */
const FIXTURE_CASE: Partial<Record<Fault, string>> = {
  'status-500': 'server-error',
  'status-429': 'rate-limit',
  cut: 'cut',
  malformed: 'malformed',
};

export class FaultUpstreams {
  private readonly mocks: Mocks = { openai: {}, claude: {}, gemini: {} };
  private blackHole: BlackHole | null = null;
  private refusedUrl = '';

  /** Starts the mocks and unreachable addresses the given faults need. */
  async start(wires: readonly Wire[], faults: readonly Fault[]): Promise<void> {
    if (faults.includes('connect-timeout')) this.blackHole = await startBlackHole();
    for (const wire of wires) {
      for (const fault of faults) await this.mockFor(wire, fault);
    }
    // Last: a port freed before the mocks started could be handed to one of them.
    this.refusedUrl = `http://127.0.0.1:${await closedPort()}`;
  }

  target(wire: Wire, fault: Fault): UpstreamTarget {
    const type = CHANNEL_TYPE[wire];
    if (fault === 'refused') return { type, base_url: this.refusedUrl, key: 'sk-unused', model: modelOf(wire, 'none') };
    if (fault === 'connect-timeout') return { type, base_url: this.blackHole!.url, key: 'sk-unused', model: modelOf(wire, 'none') };
    const mock = this.mocked(wire, fault);
    return { type, base_url: mock.url, key: mock.key, model: modelOf(wire, fault) };
  }

  /** Calls the upstream meeting `fault` on `wire` has received so far (unreachable ones receive none). */
  requestsTo(wire: Wire, fault: Fault): number {
    if (fault === 'refused' || fault === 'connect-timeout') return 0;
    const model = modelOf(wire, fault);
    return this.mocked(wire, fault).requests.filter((r) => wire === 'openai' || r.json?.model === model || r.path.includes(`/${model}:`)).length;
  }

  async close(): Promise<void> {
    const all = [...Object.values(this.mocks.openai), ...Object.values(this.mocks.claude), ...Object.values(this.mocks.gemini)];
    await Promise.all(all.map((m) => m.close()));
    await this.blackHole?.close();
  }

  private mocked(wire: Wire, fault: Fault): { url: string; key: string; requests: Array<{ path: string; json: Record<string, unknown> | null }> } {
    const found = wire === 'openai' ? this.mocks.openai[fault] : this.mocks[wire][fixtureMock(fault)];
    if (!found) throw new Error(`no ${wire} upstream started for ${fault}`);
    return found;
  }

  private async mockFor(wire: Wire, fault: Fault): Promise<void> {
    if (fault === 'refused' || fault === 'connect-timeout') return;
    if (wire === 'openai') {
      if (this.mocks.openai[fault]) return;
      const mock = await startMockOpenAI(`sk-openai-${fault}`);
      mock.behaviour = OPENAI_BEHAVIOUR[fault] ?? {};
      this.mocks.openai[fault] = mock;
      return;
    }
    const kind = fixtureMock(fault);
    if (this.mocks[wire][kind]) return;
    // A stall comes after the first text: Claude's fourth event, Gemini's second.
    const opts = kind === 'slow' ? { headDelayMs: HOLD_MS } : kind === 'stall' ? { stallAfter: wire === 'claude' ? 4 : 2 } : {};
    if (wire === 'claude') this.mocks.claude[kind] = await startClaudeMock(opts);
    else this.mocks.gemini[kind] = await startGeminiMock(opts);
  }
}

/** Which Claude/Gemini mock a fault needs: timing faults are options of their own mock, the rest are fixture cases. */
function fixtureMock(fault: Fault): 'none' | 'slow' | 'stall' {
  if (fault === 'first-byte-timeout' || fault === 'slow-head') return 'slow';
  if (fault === 'idle-timeout' || fault === 'stall') return 'stall';
  return 'none';
}

function modelOf(wire: Wire, fault: Fault): string {
  const fixtureCase = FIXTURE_CASE[fault] ?? 'default';
  if (wire === 'openai') return 'gpt-4o-mini';
  return wire === 'claude' ? `claude-mock-${fixtureCase}` : `gemini-mock-${fixtureCase}`;
}
