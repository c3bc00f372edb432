import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/connect.js';

/*
 * GET /api/ready for load balancers and orchestrators: can this process serve calls now? It asks the database for one
 * row (the users table, which every call reads) and, when REDIS_CONN_STRING is set, Redis for a PING, each bounded
 * by READY_TIMEOUT_MS. A dependency that does not answer in time (stopped answering, connection closed, table gone)
 * makes it 503 with which one failed. /api/status stays a liveness check that touches neither.
 *
 * At most one check per dependency is in flight: a probe arriving while the last check is still out waits on that
 * one (a database that stopped answering is not sent a new query per probe, each holding a pool connection).
 */

export const READY_TIMEOUT_MS = 2_000;

export type CheckState = 'ok' | 'failed';

export interface ReadinessData {
  database: CheckState;
  redis: CheckState | 'off';
}

/** One dependency's check, shared by the probes that arrive while it is out. */
class Check {
  private pending: Promise<void> | null = null;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly timeoutMs: number,
  ) {}

  async state(): Promise<CheckState> {
    if (!this.pending) {
      const p = this.run().then(() => undefined);
      this.pending = p;
      const clear = () => {
        if (this.pending === p) this.pending = null;
      };
      p.then(clear, clear);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<CheckState>((resolve) => (timer = setTimeout(() => resolve('failed'), this.timeoutMs)));
    try {
      return await Promise.race([this.pending.then((): CheckState => 'ok', (): CheckState => 'failed'), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}

export class Readiness {
  private readonly database: Check;
  private readonly redis: Check | null;

  /** `pingRedis`: null when Redis is not configured. */
  constructor(db: Db, pingRedis: (() => Promise<unknown>) | null, timeoutMs = READY_TIMEOUT_MS) {
    this.database = new Check(() => sql`select id from users order by id limit 1`.execute(db.kysely), timeoutMs);
    this.redis = pingRedis ? new Check(pingRedis, timeoutMs) : null;
  }

  async check(): Promise<ReadinessData> {
    const [database, redis] = await Promise.all([this.database.state(), this.redis ? this.redis.state() : Promise.resolve('off' as const)]);
    return { database, redis };
  }
}

const FAILED_MESSAGE = { database: '数据库无法访问', redis: 'Redis 无法访问' } as const;

export function readinessRoute(readiness: Readiness): FastifyPluginAsync {
  return async (app) => {
    // Probes come every few seconds from one address (the balancer's): they are not counted by the per-address limit.
    app.get('/ready', { config: { access: 'public', unlimited: true } }, async (_request, reply) => {
      const data = await readiness.check();
      void reply.header('cache-control', 'no-store');
      const failed = (['database', 'redis'] as const).filter((k) => data[k] === 'failed');
      if (failed.length === 0) return { success: true, message: '', data };
      return reply.status(503).send({ success: false, message: failed.map((k) => FAILED_MESSAGE[k]).join('；'), data });
    });
  };
}
