import { CHANNEL_STATUS } from '@switchyard/shared';
/** Rows per INSERT: keeps statements well under every driver's parameter limit. */
const CHUNK = 50;
/** A comma list as a clean list: trimmed, without blanks or repeats, in first-seen order. */
export function splitList(text) {
    const out = [];
    const seen = new Set();
    for (const part of text.split(',')) {
        const item = part.trim();
        if (item !== '' && !seen.has(item)) {
            seen.add(item);
            out.push(item);
        }
    }
    return out;
}
/** The ability rows a channel should have. */
export function abilityRows(channel) {
    const enabled = channel.status === CHANNEL_STATUS.ENABLED ? 1 : 0;
    const rows = [];
    for (const group of splitList(channel.group)) {
        for (const model of splitList(channel.models)) {
            rows.push({ group, model, channel_id: channel.id, enabled, priority: channel.priority, weight: channel.weight, tag: channel.tag });
        }
    }
    return rows;
}
export async function deleteChannelAbilities(db, channelIds) {
    for (let i = 0; i < channelIds.length; i += CHUNK) {
        await db.deleteFrom('abilities').where('channel_id', 'in', channelIds.slice(i, i + CHUNK)).execute();
    }
}
/** Replaces a channel's abilities. Call it inside the transaction that wrote the channel. */
export async function rebuildChannelAbilities(db, channel) {
    await deleteChannelAbilities(db, [channel.id]);
    const rows = abilityRows(channel);
    for (let i = 0; i < rows.length; i += CHUNK)
        await db.insertInto('abilities').values(rows.slice(i, i + CHUNK)).execute();
}
const abilityKey = (a) => JSON.stringify([a.group, a.model, a.enabled, Number(a.priority), Number(a.weight), a.tag]);
/**
 * Deletes abilities of channels that no longer exist and rebuilds those of channels whose rows differ from what
 * the channel says (missing, extra or stale). Returns how many orphan channels plus repaired channels there were.
 */
export async function fixAbilities(db) {
    return db.transaction().execute(async (trx) => {
        const channels = await trx
            .selectFrom('channels')
            .select(['id', 'models', 'group', 'status', 'priority', 'weight', 'tag'])
            .execute();
        const abilities = await trx.selectFrom('abilities').selectAll().execute();
        const existing = new Map();
        for (const a of abilities)
            existing.set(a.channel_id, [...(existing.get(a.channel_id) ?? []), abilityKey(a)]);
        const live = new Set(channels.map((c) => c.id));
        const orphans = [...existing.keys()].filter((id) => !live.has(id));
        await deleteChannelAbilities(trx, orphans);
        let repaired = 0;
        for (const channel of channels) {
            const want = abilityRows(channel).map(abilityKey).sort();
            const have = (existing.get(channel.id) ?? []).sort();
            if (want.length === have.length && want.every((k, i) => k === have[i]))
                continue;
            await rebuildChannelAbilities(trx, channel);
            repaired++;
        }
        return orphans.length + repaired;
    });
}
//# sourceMappingURL=abilities.js.map