import { addQuotaData, hourOf } from '../store/quota-data.js';
const keyOf = (userId, hour, model) => `${userId}\u0000${hour}\u0000${model}`;
/**
 * The data dashboard's roll-up, in memory: every settled consume call adds to its user x model x hour cell here
 * (no database write on the hot path), and flush() adds the cells to `quota_data` in one transaction. A failed
 * write puts its cells back, added to whatever arrived meanwhile, so nothing is counted twice or lost; the next
 * flush tries again. The job runner flushes every DataExportInterval minutes and once more on shutdown.
 */
export class UsageRollup {
    db;
    dialect;
    options;
    cells = new Map();
    flushing = Promise.resolve();
    constructor(db, dialect, options) {
        this.db = db;
        this.dialect = dialect;
        this.options = options;
    }
    /** Cells waiting for the next flush. */
    get pending() {
        return this.cells.size;
    }
    record(entry) {
        if (!this.options.enabled())
            return;
        const hour = hourOf(entry.at ?? Math.floor(Date.now() / 1000));
        const key = keyOf(entry.userId, hour, entry.modelName);
        const cell = this.cells.get(key);
        if (cell) {
            cell.count += 1;
            cell.tokenUsed += entry.tokens;
            cell.quota += entry.quota;
            cell.username = entry.username;
            return;
        }
        this.cells.set(key, {
            userId: entry.userId,
            username: entry.username,
            modelName: entry.modelName,
            createdAt: hour,
            count: 1,
            tokenUsed: entry.tokens,
            quota: entry.quota,
        });
    }
    /** Writes every cell recorded so far; resolves once they are stored (or put back after a failure). Never overlaps itself. */
    flush() {
        this.flushing = this.flushing.then(() => this.write());
        return this.flushing;
    }
    async write() {
        if (this.cells.size === 0)
            return;
        const batch = this.cells;
        this.cells = new Map();
        try {
            await addQuotaData(this.db, this.dialect, [...batch.values()]);
        }
        catch (err) {
            this.restore(batch);
            this.options.onError?.(err, batch.size);
        }
    }
    restore(batch) {
        for (const [key, cell] of batch) {
            const newer = this.cells.get(key);
            if (newer) {
                newer.count += cell.count;
                newer.tokenUsed += cell.tokenUsed;
                newer.quota += cell.quota;
            }
            else {
                this.cells.set(key, cell);
            }
        }
    }
}
//# sourceMappingURL=usage-rollup.js.map