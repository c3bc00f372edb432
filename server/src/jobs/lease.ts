import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { dropLease, takeLease } from '../store/job-leases.js';

/*
 * Jobs that must run on one node of a deployment (the task pollers) hold a lease in the shared database before
 * each run. The holder renews it with every run and between runs (runner.ts); when its node dies, the lease runs out
 * after TTL and the next node to ask takes it — within TTL plus one renewal (40 s + 10 s: under a minute). TTL is
 * JOB_LEASE_TTL (config.ts); the runner renews a quarter of it apart.
 *
 * The lease saves doubled work; it is not what keeps money right. A node that stalls past its lease may still
 * finish a run while another starts one, so everything a leased job writes is a conditional update that is safe to
 * apply twice (store/task-money.ts).
 */

export const DEFAULT_LEASE_TTL_MS = 40_000;

export interface JobLease {
  /** Takes or renews the lease of job `name`; false while another node holds it. */
  hold(name: string): Promise<boolean>;
  /** Whether this node held the lease of `name` at its last try. */
  holding(name: string): boolean;
  /** Gives up every lease this node holds (graceful stop). */
  releaseAll(): Promise<void>;
  /** How long a lease lasts without renewal. */
  readonly ttlMs: number;
}

export class DatabaseLease implements JobLease {
  private readonly held = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    readonly holder: string = randomUUID(),
    readonly ttlMs = DEFAULT_LEASE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async hold(name: string): Promise<boolean> {
    const now = this.now();
    let ok = false;
    try {
      ok = await takeLease(this.db, name, this.holder, now, now + this.ttlMs);
    } catch {
      // The database is away: nobody can renew, so nobody runs; the lease runs out where it is.
      ok = false;
    }
    if (ok) this.held.add(name);
    else this.held.delete(name);
    return ok;
  }

  holding(name: string): boolean {
    return this.held.has(name);
  }

  async releaseAll(): Promise<void> {
    const names = [...this.held];
    this.held.clear();
    await Promise.all(names.map((name) => dropLease(this.db, name, this.holder).catch(() => undefined)));
  }
}
