import type { Kysely, Transaction } from 'kysely';
import { CHANNEL_STATUS } from '@switchyard/shared';
import type { AbilitiesTable, ChannelRow, Database } from '../db/schema.js';

/*
 * Abilities: one row per (group x model) of each channel, with the channel's priority, weight, tag and an enabled
 * flag that mirrors its status. They are rebuilt inside the transaction that changes the channel, so they never
 * disagree with it; `fixAbilities` repairs databases written by other tools.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Rows per INSERT: keeps statements well under every driver's parameter limit. */
const CHUNK = 50;

/** A comma list as a clean list: trimmed, without blanks or repeats, in first-seen order. */
export function splitList(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item !== '' && !seen.has(item)) {
      seen.add(item);
      out.push(item);
    }
  }
  return out;
}

type ChannelFields = Pick<ChannelRow, 'id' | 'models' | 'group' | 'status' | 'priority' | 'weight' | 'tag'>;

/** The ability rows a channel should have. */
export function abilityRows(channel: ChannelFields): AbilitiesTable[] {
  const enabled = channel.status === CHANNEL_STATUS.ENABLED ? 1 : 0;
  const rows: AbilitiesTable[] = [];
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({ group, model, channel_id: channel.id, enabled, priority: channel.priority, weight: channel.weight, tag: channel.tag });
    }
  }
  return rows;
}

export async function deleteChannelAbilities(db: Db, channelIds: number[]): Promise<void> {
  for (let i = 0; i < channelIds.length; i += CHUNK) {
    await db.deleteFrom('abilities').where('channel_id', 'in', channelIds.slice(i, i + CHUNK)).execute();
  }
}

/** Replaces a channel's abilities. Call it inside the transaction that wrote the channel. */
export async function rebuildChannelAbilities(db: Db, channel: ChannelFields): Promise<void> {
  await deleteChannelAbilities(db, [channel.id]);
  const rows = abilityRows(channel);
  for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('abilities').values(rows.slice(i, i + CHUNK)).execute();
}

const abilityKey = (a: AbilitiesTable) =>
  JSON.stringify([a.group, a.model, a.enabled, Number(a.priority), Number(a.weight), a.tag]);

/**
 * Deletes abilities of channels that no longer exist and rebuilds those of channels whose rows differ from what
 * the channel says (missing, extra or stale). Returns how many orphan channels plus repaired channels there were.
 */
export async function fixAbilities(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const channels = await trx
      .selectFrom('channels')
      .select(['id', 'models', 'group', 'status', 'priority', 'weight', 'tag'])
      .execute();
    const abilities = await trx.selectFrom('abilities').selectAll().execute();
    const existing = new Map<number, string[]>();
    for (const a of abilities) existing.set(a.channel_id, [...(existing.get(a.channel_id) ?? []), abilityKey(a)]);

    const live = new Set(channels.map((c) => c.id));
    const orphans = [...existing.keys()].filter((id) => !live.has(id));
    await deleteChannelAbilities(trx, orphans);

    let repaired = 0;
    for (const channel of channels) {
      const want = abilityRows(channel).map(abilityKey).sort();
      const have = (existing.get(channel.id) ?? []).sort();
      if (want.length === have.length && want.every((k, i) => k === have[i])) continue;
      await rebuildChannelAbilities(trx, channel);
      repaired++;
    }
    return orphans.length + repaired;
  });
}

/** Distinct models of every enabled ability, sorted (the established GET /api/channel/models_enabled). */
export async function enabledModels(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('abilities').select('model').distinct().where('enabled', '=', 1).orderBy('model').execute();
  return rows.map((r) => r.model);
}
