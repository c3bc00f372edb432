import { sql, type Kysely, type Transaction } from 'kysely';
import { CHANNEL_STATUS } from '@switchyard/shared';
import type { ChannelRow, ChannelsTable, Database } from '../db/schema.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../lib/time.js';
import { deleteChannelAbilities, rebuildChannelAbilities } from './abilities.js';
import { likeEscape } from './like-escape.js';

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/** The bus topic on which a node announces that channels changed; every node then reloads its routing table. */
export const CHANNELS_TOPIC = 'channels';

/** Writable columns, as stored. Counters, times and other_info are kept by the store. */
export type ChannelInput = Pick<
  ChannelsTable,
  | 'type'
  | 'key'
  | 'openai_organization'
  | 'test_model'
  | 'status'
  | 'name'
  | 'weight'
  | 'base_url'
  | 'other'
  | 'models'
  | 'group'
  | 'model_mapping'
  | 'status_code_mapping'
  | 'priority'
  | 'auto_ban'
  | 'tag'
  | 'setting'
  | 'param_override'
  | 'max_input_tokens'
> & {
  /** Multi-key channels only (store/channel-keys.ts). */
  channel_info?: string | null;
};

export type ChannelChanges = Partial<ChannelInput>;

async function insertOne(trx: Trx, input: ChannelInput): Promise<number> {
  const values = {
    ...input,
    created_time: nowSeconds(),
    test_time: 0,
    response_time: 0,
    balance: 0,
    balance_updated_time: 0,
    used_quota: 0,
    other_info: '',
  };
  // PostgreSQL reports no insert id without RETURNING, MySQL has no RETURNING; SQLite has both.
  if (trx.getExecutor().adapter.supportsReturning) {
    const row = await trx.insertInto('channels').values(values).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const res = await trx.insertInto('channels').values(values).executeTakeFirstOrThrow();
  return Number(res.insertId);
}

/** Inserts channels with their abilities, all or none. Returns the new ids in input order. */
export async function insertChannels(db: Db, inputs: ChannelInput[]): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const input of inputs) {
      const id = await insertOne(trx, input);
      await rebuildChannelAbilities(trx, { ...input, id });
      ids.push(id);
    }
    return ids;
  });
}

export async function findChannel(db: Db | Trx, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Changes the fields given and rebuilds the abilities from the result; reports whether the channel existed. */
export async function updateChannel(db: Db, id: number, changes: ChannelChanges): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await findChannel(trx, id);
    if (!row) return false;
    if (Object.keys(changes).length > 0) await trx.updateTable('channels').set(changes).where('id', '=', id).execute();
    await rebuildChannelAbilities(trx, { ...row, ...changes });
    return true;
  });
}

/** Deletes channels and their abilities; returns how many channels there were. */
export async function deleteChannels(db: Db, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    let deleted = 0;
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const res = await trx.deleteFrom('channels').where('id', 'in', chunk).executeTakeFirst();
      deleted += Number(res.numDeletedRows);
    }
    await deleteChannelAbilities(trx, ids);
    return deleted;
  });
}

/** Deletes every manually or automatically disabled channel; returns the count. */
export async function deleteDisabledChannels(db: Db): Promise<number> {
  const rows = await db
    .selectFrom('channels')
    .select('id')
    .where('status', 'in', [CHANNEL_STATUS.MANUALLY_DISABLED, CHANNEL_STATUS.AUTO_DISABLED])
    .execute();
  return deleteChannels(
    db,
    rows.map((r) => r.id),
  );
}

export type ChannelOrder = 'priority' | 'id';

function ordered<Q extends { orderBy: (col: 'priority' | 'id', dir: 'desc') => Q }>(q: Q, order: ChannelOrder): Q {
  return order === 'id' ? q.orderBy('id', 'desc') : q.orderBy('priority', 'desc').orderBy('id', 'desc');
}

export async function listChannels(db: Db, order: ChannelOrder, offset: number, limit: number): Promise<ChannelRow[]> {
  return ordered(db.selectFrom('channels').selectAll(), order).offset(offset).limit(limit).execute();
}

export async function listChannelsWithStatus(db: Db, statuses: number[]): Promise<ChannelRow[]> {
  return db.selectFrom('channels').selectAll().where('status', 'in', statuses).orderBy('id').execute();
}

export interface ChannelSearch {
  /** Matches the id, a substring of the name, or the whole key. */
  keyword: string;
  /** One of the channel's groups. */
  group: string;
  /** Substring of the model list. */
  model: string;
}

const like = (column: string, pattern: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern.toLowerCase()} escape '!'`;

export async function searchChannels(db: Db, search: ChannelSearch, order: ChannelOrder, offset: number, limit: number): Promise<ChannelRow[]> {
  let q = db.selectFrom('channels').selectAll();
  const { keyword, group, model } = search;
  if (keyword !== '') {
    q = q.where((eb) => {
      const anyOf = [like('name', `%${likeEscape(keyword)}%`), eb('key', '=', keyword)];
      if (/^\d{1,9}$/.test(keyword)) anyOf.push(eb('id', '=', Number(keyword)));
      return eb.or(anyOf);
    });
  }
  if (group !== '') {
    // Membership in a comma list without string concatenation, whose syntax differs between the dialects.
    const g = likeEscape(group);
    q = q.where((eb) =>
      eb.or([
        eb('group', '=', group),
        sql<boolean>`${sql.ref('group')} like ${`${g},%`} escape '!'`,
        sql<boolean>`${sql.ref('group')} like ${`%,${g}`} escape '!'`,
        sql<boolean>`${sql.ref('group')} like ${`%,${g},%`} escape '!'`,
      ]),
    );
  }
  if (model !== '') q = q.where(like('models', `%${likeEscape(model)}%`));
  return ordered(q, order).offset(offset).limit(limit).execute();
}

/** Parsed other_info; a broken value counts as empty. */
export function parseOtherInfo(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Reloads this node's routing table and tells the other nodes to reload theirs. */
export async function channelsChanged(ctx: Pick<AppContext, 'routing' | 'bus'>): Promise<void> {
  await ctx.routing.load();
  await ctx.bus.publish(CHANNELS_TOPIC, 'reload');
}

/**
 * Sets a channel's status with its abilities and other_info {status_reason, status_time} in one transaction, then
 * refreshes routing here and on the other nodes. With `onlyFrom`, the change happens only when the current
 * status is one of those (auto-enable passes [3], so a manually disabled channel stays off). Returns whether the
 * status changed; setting the status a channel already has does nothing, so a burst of failures disables once.
 */
export async function setChannelStatus(
  ctx: Pick<AppContext, 'routing' | 'bus' | 'db'>,
  id: number,
  status: number,
  reason = '',
  onlyFrom?: readonly number[],
): Promise<boolean> {
  const changed = await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await findChannel(trx, id);
    if (!row || row.status === status || (onlyFrom && !onlyFrom.includes(row.status))) return false;
    const otherInfo = JSON.stringify({ ...parseOtherInfo(row.other_info), status_reason: reason, status_time: nowSeconds() });
    const res = await trx
      .updateTable('channels')
      .set({ status, other_info: otherInfo })
      .where('id', '=', id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await rebuildChannelAbilities(trx, { ...row, status });
    return true;
  });
  if (changed) await channelsChanged(ctx);
  return changed;
}

/** Adds what a call through the channel cost. */
export async function addChannelUsedQuota(db: Db | Trx, id: number, quota: number): Promise<void> {
  if (quota === 0) return;
  await db
    .updateTable('channels')
    .set({ used_quota: sql`used_quota + ${quota}` })
    .where('id', '=', id)
    .execute();
}

/** Saves the outcome time of a channel test (response time in ms, test time in unix seconds). */
export async function recordChannelTest(db: Db, id: number, responseTimeMs: number, testTime: number): Promise<void> {
  await db
    .updateTable('channels')
    .set({ response_time: Math.max(0, Math.round(responseTimeMs)), test_time: testTime })
    .where('id', '=', id)
    .execute();
}

export async function recordChannelBalance(db: Db, id: number, balance: number, time: number = nowSeconds()): Promise<void> {
  await db.updateTable('channels').set({ balance, balance_updated_time: time }).where('id', '=', id).execute();
}
