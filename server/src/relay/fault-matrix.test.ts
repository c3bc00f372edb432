import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { DEFAULT_USAGE, FaultUpstreams, type Fault } from '../test/fault-upstreams.js';
import { callAs, expectErrorBody, expectWholeAnswer, streamErrorOf, streamedText, type ClientOutcome } from '../test/client-calls.js';
import { booksOf, expectBalanced, quiesce, type Books } from '../test/ledger.js';
import {
  ALL_PATHS,
  COMPLETION_RATIO,
  MODEL_RATIO,
  SERVER_PATHS,
  VARIANTS,
  pathName,
  prepareCase,
  priceModels,
  type Path,
  type PreparedCase,
} from '../test/fault-matrix.js';
import { loadEncodings } from './tokenizer.js';

/*
 * The fault matrix: every client format (OpenAI chat, Claude Messages, Gemini generateContent), streamed and not,
 * on a passthrough channel and on a converted one, meets every way an upstream fails and every way a client leaves.
 * For each case: the caller is told in its own format with the right status class, and the books balance to the unit
 * (consume logs = drop of the user's quota = rise of the user's and token's used quota = drop of a limited token =
 * rise of the channel's used quota; nothing reserved left behind). Each case is one call on its own account and
 * channel, so all cases run at once and the timeouts (RELAY_TIMEOUT, STREAMING_TIMEOUT) are waited for once.
 *
 * SQLite runs the whole matrix; PostgreSQL and MySQL run every fault on two paths (a passthrough stream and a
 * converted whole answer): the money written differs by dialect, not by client format.
 */

const RELAY_TIMEOUT_S = 2;
const STREAMING_TIMEOUT_S = 2;
/**
 * Slack for "answered within the timeout": undici checks timeouts of a second or more on a 0.5 s tick, and every case
 * starts at once on a machine that may be loaded. Without the fixes these cases took 10 s (connect) or forever.
 */
const SLACK_MS = 2500;

/** What a case's caller must see. */
type Expected =
  /** 200 and a whole answer, charged exactly the upstream's usage. */
  | { answer: 'whole' }
  /** An error before any byte of the answer, nothing charged. */
  | { answer: 'refused'; status: number | '5xx'; withinMs?: number }
  /** 200, part of the answer, then the format's error event; charged for what was generated. */
  | { answer: 'broken'; withinMs?: number }
  /** The client left; charged only for what was delivered (`charged`: one consume log). */
  | { answer: 'left'; charged: boolean };

interface FaultCase {
  name: string;
  fault: Fault;
  streamsOnly?: boolean;
  client?: { leaveAfterMs?: number; leaveOnText?: string };
  expected(path: Path): Expected;
}

const relayTimeoutMs = RELAY_TIMEOUT_S * 1000 + SLACK_MS;
const streamingTimeoutMs = STREAMING_TIMEOUT_S * 1000 + SLACK_MS;

const FAULTS: FaultCase[] = [
  { name: 'a healthy upstream (control)', fault: 'none', expected: () => ({ answer: 'whole' }) },
  { name: 'upstream 500', fault: 'status-500', expected: () => ({ answer: 'refused', status: '5xx' }) },
  { name: 'upstream 429 with retry-after', fault: 'status-429', expected: () => ({ answer: 'refused', status: 429 }) },
  { name: 'connection refused', fault: 'refused', expected: () => ({ answer: 'refused', status: '5xx' }) },
  { name: 'connect timeout', fault: 'connect-timeout', expected: () => ({ answer: 'refused', status: '5xx', withinMs: relayTimeoutMs }) },
  { name: 'first-byte timeout', fault: 'first-byte-timeout', expected: () => ({ answer: 'refused', status: '5xx', withinMs: relayTimeoutMs }) },
  {
    name: 'idle timeout mid-answer',
    fault: 'idle-timeout',
    expected: (p) => (p.stream ? { answer: 'broken', withinMs: streamingTimeoutMs } : { answer: 'refused', status: '5xx', withinMs: streamingTimeoutMs }),
  },
  { name: 'upstream cut mid-answer', fault: 'cut', expected: (p) => (p.stream ? { answer: 'broken' } : { answer: 'refused', status: '5xx' }) },
  // A whole answer that does not parse is refused, never billed; a stream keeps going past an event that does not
  // parse (forwarded as it came on passthrough, skipped when converted) and is billed on the usage the upstream
  // reported, as the established gateway does.
  {
    name: 'malformed upstream JSON / SSE',
    fault: 'malformed',
    expected: (p) => (p.stream ? { answer: 'whole' } : { answer: 'refused', status: '5xx' }),
  },
  { name: 'client leaves before the answer', fault: 'slow-head', client: { leaveAfterMs: 300 }, expected: () => ({ answer: 'left', charged: false }) },
  { name: 'client leaves mid-stream', fault: 'stall', streamsOnly: true, client: { leaveOnText: 'Hello' }, expected: () => ({ answer: 'left', charged: true }) },
];

interface CaseRun {
  title: string;
  path: Path;
  fault: FaultCase;
  prepared: PreparedCase;
  outcome?: ClientOutcome;
  books?: Books;
}

describe.each(testDatabases())('fault matrix on $name', (database) => {
  const paths = database.name === 'sqlite' ? ALL_PATHS : SERVER_PATHS;
  const faults = (p: Path) => FAULTS.filter((c) => p.stream || !c.streamsOnly);
  const cases = paths.flatMap((p) => faults(p).map((c) => ({ p, c }))).map(({ p, c }, i) => {
    const variant = VARIANTS[i % VARIANTS.length];
    return { p, c, variant, title: `${pathName(p)}: ${c.name} (${variant.name})` };
  });
  let f: RelayFixture;
  const upstreams = new FaultUpstreams();
  const runs = new Map<string, CaseRun>();

  beforeAll(async () => {
    loadEncodings();
    f = await startRelay(database, { RELAY_TIMEOUT: String(RELAY_TIMEOUT_S), STREAMING_TIMEOUT: String(STREAMING_TIMEOUT_S) });
    await upstreams.start(['openai', 'claude', 'gemini'], [...new Set(FAULTS.map((c) => c.fault))]);
    for (const { p, c, variant, title } of cases) {
      const prepared = await prepareCase(f, upstreams, p, c.fault, variant, c.client);
      runs.set(title, { title, path: p, fault: c, prepared });
    }
    await priceModels(f, [...runs.values()].map((r) => r.prepared.model));
    await Promise.all(
      [...runs.values()].map(async (run) => {
        run.outcome = await callAs(run.path.client, f.baseUrl, run.prepared.account.key, run.prepared.call);
      }),
    );
    await quiesce(f.t.app.ctx);
    for (const run of runs.values()) run.books = await booksOf(f.t.app.ctx.db.kysely, run.prepared.account, [run.prepared.channelId]);
  }, 120_000);

  afterAll(async () => {
    await f?.close();
    await upstreams.close();
  });

  it.each(cases)('$title', ({ p, c, title }) => {
    const run = runs.get(title)!;
    const { outcome, books } = run;
    const expected = c.expected(p);
    const why = `${run.title}: ${JSON.stringify({ ...outcome, text: outcome!.text.slice(0, 600) })}`;
    expectBalanced(run.prepared.account, books!);
    switch (expected.answer) {
      case 'whole': {
        expect(outcome!.status, why).toBe(200);
        expectWholeAnswer(p.client, p.stream, outcome!.text);
        expect(books!.logCount, why).toBe(1);
        const usage = DEFAULT_USAGE[p.wire];
        expect(books!.logSum, why).toBe(Math.round((usage.prompt + usage.completion * COMPLETION_RATIO) * MODEL_RATIO));
        break;
      }
      case 'refused': {
        if (expected.status === '5xx') expect(outcome!.status, why).toBeGreaterThanOrEqual(500);
        else expect(outcome!.status, why).toBe(expected.status);
        expect(outcome!.status, why).toBeLessThan(600);
        expectErrorBody(p.client, outcome!.status, outcome!.text);
        expect(books!.logCount, why).toBe(0);
        if (expected.withinMs) expect(outcome!.elapsedMs, why).toBeLessThan(expected.withinMs);
        break;
      }
      case 'broken': {
        expect(outcome!.status, why).toBe(200);
        expect(streamedText(p.client, outcome!.text), why).not.toBe('');
        expect(streamErrorOf(p.client, outcome!.text), why).not.toBeNull();
        expect(books!.logCount, why).toBe(1);
        expect(books!.logSum, why).toBeGreaterThan(0);
        if (expected.withinMs) expect(outcome!.elapsedMs, why).toBeLessThan(expected.withinMs);
        break;
      }
      case 'left': {
        expect(outcome!.left, why).toBe(true);
        expect(books!.logCount, why).toBe(expected.charged ? 1 : 0);
        if (expected.charged) expect(books!.logSum, why).toBeGreaterThan(0);
        break;
      }
    }
  });
});
