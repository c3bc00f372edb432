import { expect } from 'vitest';
import type { RelayFixture } from './relay-fixture.js';

/*
 * What the relay's integration tests check about money: a model's price set through the options, the documented
 * cost formula, and root's quota and consume logs read back from the database around a call.
 */

/** Tokens of one call as the upstream reported them (cached and created are part of prompt). */
export interface Tokens {
  prompt: number;
  completion: number;
  cached?: number;
  created?: number;
}

/** A model's ratios as set through the options (ModelRatio / CompletionRatio / CacheRatio). */
export interface Price {
  ratio: number;
  completion: number;
  /** CacheRatio set as an option; absent: the built-in cache ratio of the model family. */
  cache?: number;
}

/** Claude bills cache writes at 1.25x the input price (the five-minute cache, the built-in ratio by model name). */
export const CACHE_CREATION_RATIO = 1.25;

/**
 * The documented formula, group ratio 1: round((prompt - cached - created + cached x cacheRatio + created x
 * creationRatio + completion x completionRatio) x modelRatio).
 */
export function costOf(model: string, t: Tokens, price: Price, cacheRatio = price.cache ?? 1): number {
  const cached = t.cached ?? 0;
  const created = t.created ?? 0;
  const creationRatio = model.startsWith('claude') ? CACHE_CREATION_RATIO : 1;
  const weighted = t.prompt - cached - created + cached * cacheRatio + created * creationRatio + t.completion * price.completion;
  return Math.round(weighted * price.ratio);
}

/** Sets the ratios of every model in `prices` (a CacheRatio only for those that have one). */
export async function setPrices(f: RelayFixture, prices: Record<string, Price>): Promise<void> {
  const table = (pick: (p: Price) => number | undefined) =>
    JSON.stringify(Object.fromEntries(Object.entries(prices).flatMap(([m, p]) => (pick(p) === undefined ? [] : [[m, pick(p)]]))));
  await f.setOption('ModelRatio', table((p) => p.ratio));
  await f.setOption('CompletionRatio', table((p) => p.completion));
  await f.setOption('CacheRatio', table((p) => p.cache));
}

/** Root's quota and consume logs in the relay's database, for the fixture a suite starts in beforeAll. */
export function billing(fixture: () => RelayFixture) {
  const db = () => fixture().t.app.ctx.db.kysely;

  async function quotaOf(): Promise<number> {
    const row = await db().selectFrom('users').select('quota').where('id', '=', fixture().root.userId).executeTakeFirstOrThrow();
    return row.quota;
  }

  /** The newest consume log (type 2). */
  async function lastLog() {
    return db().selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  }

  async function logCount(): Promise<number> {
    const rows = await db().selectFrom('logs').select('id').where('type', '=', 2).execute();
    return rows.length;
  }

  /** Streams settle after their last byte went out: give the settlement a moment to be queued, then write it. */
  async function settled(): Promise<void> {
    await new Promise((r) => setTimeout(r, 50));
    await fixture().flush();
  }

  /** Runs a call and checks what it cost: the user's quota drop and its consume log both equal `cost`. */
  async function expectCharge<T>(model: string, tokens: Tokens, cost: number, call: () => Promise<T>) {
    await fixture().flush();
    const before = await quotaOf();
    const result = await call();
    await settled();
    const log = await lastLog();
    expect(log).toMatchObject({ model_name: model, prompt_tokens: tokens.prompt, completion_tokens: tokens.completion, quota: cost });
    expect(before - (await quotaOf())).toBe(cost);
    return { result, log, other: JSON.parse(log.other) as Record<string, unknown> };
  }

  /** Runs a call between two writes of what is pending: what it cost the user and how many consume logs it wrote. */
  async function measure(run: () => Promise<unknown>) {
    await fixture().flush();
    const before = await quotaOf();
    const logsBefore = await logCount();
    await run();
    await fixture().flush();
    return { spent: before - (await quotaOf()), logs: (await logCount()) - logsBefore };
  }

  /** Runs a call and returns what it cost the user and the one consume log it wrote. */
  async function charged(run: () => Promise<unknown>) {
    const { spent, logs } = await measure(run);
    expect(logs).toBe(1);
    return { spent, log: await lastLog() };
  }

  /** Runs a call that must not be charged nor logged. */
  async function free(run: () => Promise<unknown>) {
    const { spent, logs } = await measure(run);
    expect(spent).toBe(0);
    expect(logs).toBe(0);
  }

  /** Runs a call that fails and returns its error, checking that the user's quota did not move. */
  async function uncharged(call: () => Promise<unknown>): Promise<unknown> {
    let err: unknown = null;
    const { spent } = await measure(() =>
      call().then(
        () => undefined,
        (e: unknown) => {
          err = e;
        },
      ),
    );
    expect(spent).toBe(0);
    return err;
  }

  return { quotaOf, lastLog, settled, expectCharge, charged, free, uncharged };
}
