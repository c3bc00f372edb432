import type { Kysely } from 'kysely';
import { CHANNEL_STATUS } from '@switchyard/shared';
import type { ChannelRow, Database } from '../db/schema.js';
import { rebuildChannelAbilities } from './abilities.js';
import type { ChannelChanges, ChannelOrder } from './channels.js';

/*
 * Channels grouped by their tag, as the established gateway groups them: the tag list is paged (tags in name order),
 * each page brings every channel of its tags; status and edits apply to all channels of a tag at once, with their
 * abilities rebuilt in the same transaction.
 */

type Db = Kysely<Database>;

/** Tags per IN list: keeps statements well under every driver's parameter limit. */
const CHUNK = 100;

/** One page of the distinct non-empty tags, in name order. */
export async function pageOfTags(db: Db, offset: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('channels').select('tag').distinct().where('tag', '!=', '').orderBy('tag').offset(offset).limit(limit).execute();
  return rows.map((r) => r.tag);
}

/** The channels of these tags: grouped by tag in the order given, each group in the list's order. */
export async function channelsOfTags(db: Db, tags: string[], order: ChannelOrder): Promise<ChannelRow[]> {
  if (tags.length === 0) return [];
  const rows: ChannelRow[] = [];
  for (let i = 0; i < tags.length; i += CHUNK) {
    rows.push(...(await db.selectFrom('channels').selectAll().where('tag', 'in', tags.slice(i, i + CHUNK)).execute()));
  }
  const rank = new Map(tags.map((t, i) => [t, i]));
  const byOrder = (a: ChannelRow, b: ChannelRow) =>
    order === 'id' ? b.id - a.id : Number(b.priority) - Number(a.priority) || b.id - a.id;
  return rows.sort((a, b) => rank.get(a.tag)! - rank.get(b.tag)! || byOrder(a, b));
}

/** The distinct non-empty tags of these channels, in name order. */
export function tagsOf(rows: ChannelRow[]): string[] {
  return [...new Set(rows.map((r) => r.tag).filter((t) => t !== ''))].sort();
}

/**
 * Applies `changes` to every channel with the tag and rebuilds their abilities, all or none. Returns how many
 * channels had the tag.
 */
export async function updateChannelsByTag(db: Db, tag: string, changes: ChannelChanges): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('channels').selectAll().where('tag', '=', tag).execute();
    if (rows.length === 0) return 0;
    if (Object.keys(changes).length > 0) await trx.updateTable('channels').set(changes).where('tag', '=', tag).execute();
    for (const row of rows) await rebuildChannelAbilities(trx, { ...row, ...changes });
    return rows.length;
  });
}

/** Enables (1) or manually disables (2) every channel with the tag; returns how many had it. */
export function setTagStatus(db: Db, tag: string, enabled: boolean): Promise<number> {
  return updateChannelsByTag(db, tag, { status: enabled ? CHANNEL_STATUS.ENABLED : CHANNEL_STATUS.MANUALLY_DISABLED });
}

/** The longest model list (most models) among the tag's channels, '' when none has any. */
export async function longestModelsOfTag(db: Db, tag: string): Promise<string> {
  const rows = await db.selectFrom('channels').select('models').where('tag', '=', tag).orderBy('id').execute();
  let longest = '';
  let most = 0;
  for (const { models } of rows) {
    const count = models === '' ? 0 : models.split(',').length;
    if (count > most) {
      most = count;
      longest = models;
    }
  }
  return longest;
}

/** A page of the tag list with every channel of its tags (the tag mode of the channel list). */
export async function tagModePage(db: Db, order: ChannelOrder, offset: number, limit: number): Promise<ChannelRow[]> {
  return channelsOfTags(db, await pageOfTags(db, offset, limit), order);
}
