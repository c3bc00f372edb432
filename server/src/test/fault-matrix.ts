import type { RelayFixture } from './relay-fixture.js';
import { callAs, type ClientCallOptions, type ClientFormat, type ClientOutcome } from './client-calls.js';
import type { Fault, FaultUpstreams, Wire } from './fault-upstreams.js';
import { openAccount, type Account } from './ledger.js';

/*
 * The fault matrix's vocabulary: a path (client format x stream x channel), the ways a call's account can reserve
 * (token kind, max_tokens, balance), and a case = one call on its own account and its own channel, so each case's
 * books can be checked to the unit while all cases run at once.
 */

export interface Path {
  client: ClientFormat;
  stream: boolean;
  /** The channel's wire format: the client's own (passthrough) or another (converted). */
  wire: Wire;
}

/** The converted channel of each client format: every wire is met once as a conversion target. */
const CONVERTED: Record<ClientFormat, Wire> = { openai: 'claude', claude: 'gemini', gemini: 'openai' };

export const ALL_PATHS: Path[] = (['openai', 'claude', 'gemini'] as const).flatMap((client) =>
  [false, true].flatMap((stream) => [
    { client, stream, wire: client },
    { client, stream, wire: CONVERTED[client] },
  ]),
);

/**
 * The paths the database servers run: a passthrough stream and a converted whole answer (between them: streams and
 * whole answers, passthrough and conversion). Money differs by dialect, not by client format.
 */
export const SERVER_PATHS: Path[] = ALL_PATHS.filter(
  (p) => (p.client === 'openai' && p.stream && p.wire === 'openai') || (p.client === 'claude' && !p.stream && p.wire !== 'claude'),
);

export const pathName = (p: Path) => `${p.client} ${p.stream ? 'stream' : 'non-stream'} ${p.wire === p.client ? 'passthrough' : `via ${p.wire}`}`;

/** A balance below 100 estimates, so calls reserve; and one far above, so they skip the reservation. */
export const TIGHT = 5_000;
export const RICH = 1_000_000_000;
export const MAX_TOKENS = 50;

export interface Variant {
  name: string;
  quota: number;
  tokenQuota?: number;
  maxTokens?: number;
}

/** The ways a call reserves: both reservation sizes on a limited token, the no-reservation path, the user-only path. */
export const VARIANTS: Variant[] = [
  { name: 'limited token, max_tokens', quota: TIGHT, tokenQuota: TIGHT, maxTokens: MAX_TOKENS },
  { name: 'limited token, no max_tokens', quota: TIGHT, tokenQuota: TIGHT },
  { name: 'unlimited token, rich user (no reservation)', quota: RICH, maxTokens: MAX_TOKENS },
  { name: 'unlimited token, no max_tokens', quota: TIGHT },
];

/** Ratios every matrix model is priced at: cost = prompt + 2 x completion. */
export const MODEL_RATIO = 1;
export const COMPLETION_RATIO = 2;

export interface PreparedCase {
  model: string;
  account: Account;
  channelId: number;
  call: ClientCallOptions;
}

let modelSeq = 0;

/** A model name no other case uses. */
export const caseModel = () => `fm-${process.pid}-${++modelSeq}`;

/** A channel serving `model` only, mapped to the upstream model that meets `fault` on a `wire` upstream. */
export async function faultChannel(
  f: RelayFixture,
  upstreams: FaultUpstreams,
  model: string,
  wire: Wire,
  fault: Fault,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const target = upstreams.target(wire, fault);
  return f.channel({
    type: target.type,
    name: `${model}-${wire}-${fault}`,
    base_url: target.base_url,
    key: target.key,
    models: model,
    model_mapping: JSON.stringify({ [model]: target.model }),
    auto_ban: 0,
    ...fields,
  });
}

/** Gives a case its own model name, channel (serving only that model, meeting the fault) and account. */
export async function prepareCase(
  f: RelayFixture,
  upstreams: FaultUpstreams,
  path: Path,
  fault: Fault,
  variant: Variant,
  client: Partial<ClientCallOptions> = {},
): Promise<PreparedCase> {
  const model = caseModel();
  const channelId = await faultChannel(f, upstreams, model, path.wire, fault);
  const account = await openAccount(f.t.app.ctx.db.kysely, { quota: variant.quota, tokenQuota: variant.tokenQuota });
  return { model, account, channelId, call: { model, stream: path.stream, maxTokens: variant.maxTokens, ...client } };
}

/** Prices every model given at the matrix's ratios. */
export async function priceModels(f: RelayFixture, models: readonly string[]): Promise<void> {
  await f.setOption('ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, MODEL_RATIO]))));
  await f.setOption('CompletionRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, COMPLETION_RATIO]))));
}

/** Channels of every wire on healthy upstreams, each serving one model of its own (for the load scenarios). */
export async function healthyChannels(f: RelayFixture, upstreams: FaultUpstreams, tag: string): Promise<{ models: Record<Wire, string>; channelIds: number[] }> {
  const models = { openai: `${tag}-openai`, claude: `${tag}-claude`, gemini: `${tag}-gemini` };
  const channelIds: number[] = [];
  for (const wire of ['openai', 'claude', 'gemini'] as const) {
    const target = upstreams.target(wire, 'none');
    const name = models[wire];
    channelIds.push(
      await f.channel({ type: target.type, name, base_url: target.base_url, key: target.key, models: name, model_mapping: JSON.stringify({ [name]: target.model }), auto_ban: 0 }),
    );
  }
  return { models, channelIds };
}

export interface LoadResult {
  path: Path;
  /** When the call was sent (ms since the epoch). */
  startedAt: number;
  outcome: ClientOutcome;
}

/**
 * Calls for `durationMs` from `workers` concurrent clients per account, each walking through the paths in turn
 * (the channel of a path is the one serving `models[path.wire]`). Resolves with every call's outcome per account.
 */
export async function runLoad(
  baseUrl: string,
  accounts: readonly Account[],
  o: { paths: readonly Path[]; models: Record<Wire, string>; durationMs: number; workers: number; maxTokens?: (a: Account) => number | undefined },
): Promise<Map<Account, LoadResult[]>> {
  const results = new Map<Account, LoadResult[]>(accounts.map((a) => [a, []]));
  const until = Date.now() + o.durationMs;
  const worker = async (a: Account, start: number) => {
    for (let i = start; Date.now() < until; i++) {
      const path = o.paths[i % o.paths.length];
      const startedAt = Date.now();
      const outcome = await callAs(path.client, baseUrl, a.key, { model: o.models[path.wire], stream: path.stream, maxTokens: o.maxTokens?.(a) });
      results.get(a)!.push({ path, startedAt, outcome });
    }
  };
  await Promise.all(accounts.flatMap((a) => Array.from({ length: o.workers }, (_, w) => worker(a, w * 5))));
  return results;
}
