/*
 * An online top-up order fixes the quota it will credit when it is created, so what the user was quoted is what
 * lands — whatever QuotaPerUnit says when the payment notice arrives, and in whatever unit the amount was typed.
 */
export async function up(db, _dialect) {
    await db.schema
        .alterTable('top_ups')
        .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
}
//# sourceMappingURL=002_top_up_quota.js.map