import { expect } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { LOG_TYPE } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/schema.js';
import { insertChannels } from '../store/channels.js';
import { booksOf, quiesce, type Account } from './ledger.js';

/*
 * Calls to the Suno routes of an app, and the books of an account that made them: what left its balances equals
 * the consume logs minus the refunds' system logs, for the user and for the token, to the unit.
 */

export interface SunoAnswer {
  status: number;
  body: { code: string; message: string; data: unknown };
}

export async function suno(app: FastifyInstance, key: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<SunoAnswer> {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.json() };
}

/** Submits and expects the upstream to take it; returns the task id. */
export async function submitMusic(app: FastifyInstance, key: string, body: Record<string, unknown> = { prompt: 'a song about trains', mv: 'chirp-v3-5' }): Promise<string> {
  const res = await suno(app, key, 'POST', '/suno/submit/music', body);
  expect(res, JSON.stringify(res.body)).toMatchObject({ status: 200, body: { code: 'success' } });
  return res.body.data as string;
}

export interface Money {
  consumed: number;
  refunded: number;
  consumeLogs: number;
  refundLogs: number;
}

/** Consume logs and refund system logs of an account, and checks its books balance with them. */
export async function expectBooks(app: FastifyInstance, a: Account, channelIds?: readonly number[]): Promise<Money> {
  await quiesce(app.ctx);
  const db = app.ctx.db.kysely as Kysely<Database>;
  const b = await booksOf(db, a, channelIds);
  const refunds = await db
    .selectFrom('logs')
    .select([sql<number>`coalesce(sum(quota), 0)`.as('sum'), sql<number>`count(*)`.as('count')])
    .where('user_id', '=', a.userId)
    .where('type', '=', LOG_TYPE.SYSTEM)
    .executeTakeFirstOrThrow();
  const refunded = Number(refunds.sum);
  const net = b.logSum - refunded;
  const summary = JSON.stringify({ ...b, refunded });
  expect(a.initialQuota - b.quota, `user quota drop = consumed - refunded (${summary})`).toBe(net);
  expect(b.usedQuota, `user used quota (${summary})`).toBe(net);
  expect(b.tokenUsed, `token used quota (${summary})`).toBe(net);
  if (a.limited) expect(a.initialTokenQuota - b.tokenRemain, `token remain drop = consumed - refunded (${summary})`).toBe(net);
  else expect(b.tokenRemain).toBe(a.initialTokenQuota);
  if (b.channelsUsed !== undefined) expect(b.channelsUsed, `channels credited (${summary})`).toBe(net);
  expect(b.requestCount, `one request per consume log (${summary})`).toBe(b.logCount);
  return { consumed: b.logSum, refunded, consumeLogs: b.logCount, refundLogs: Number(refunds.count) };
}

export async function taskRow(app: FastifyInstance, taskId: string) {
  return (app.ctx.db.kysely as Kysely<Database>).selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
}

/** A Suno channel written straight to the store (with its abilities), and the node's routing reloaded. */
export async function sunoChannel(app: FastifyInstance, fields: { base_url: string; key: string; group?: string; priority?: number; name?: string }): Promise<number> {
  const [id] = await insertChannels(app.ctx.db.kysely, [
    {
      type: 36,
      openai_organization: '',
      test_model: '',
      status: 1,
      name: fields.name ?? 'suno',
      weight: 0,
      other: '',
      models: 'suno_music,suno_lyrics',
      group: fields.group ?? 'default',
      model_mapping: '',
      status_code_mapping: '',
      priority: fields.priority ?? 0,
      auto_ban: 1,
      tag: '',
      setting: '',
      param_override: '',
      max_input_tokens: 0,
      base_url: fields.base_url,
      key: fields.key,
    },
  ]);
  await app.ctx.routing.load();
  return id;
}
