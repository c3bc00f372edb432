export async function loadOptionRows(db) {
    return db.selectFrom('options').select(['key', 'value']).execute();
}
export async function loadOptionRow(db, key) {
    const row = await db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
}
/** Insert or replace one option row (portable upsert: update, then insert when nothing was there). */
export async function saveOptionRow(db, key, value) {
    await db.transaction().execute(async (trx) => {
        const res = await trx.updateTable('options').set({ value }).where('key', '=', key).executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) {
            const exists = await trx.selectFrom('options').select('key').where('key', '=', key).executeTakeFirst();
            if (!exists)
                await trx.insertInto('options').values({ key, value }).execute();
        }
    });
}
//# sourceMappingURL=options.js.map