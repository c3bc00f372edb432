export const USAGE_FLUSH_JOB = 'usage-flush';
/**
 * Writes the data dashboard's in-memory roll-up to `quota_data` every DataExportInterval minutes, on every node
 * (each node holds its own calls), and once more on shutdown so a restart loses nothing.
 */
export function usageFlushJob(usage, options) {
    return {
        name: USAGE_FLUSH_JOB,
        interval: () => options.get('DataExportInterval') * 60_000,
        run: () => usage.flush(),
        runOnStop: true,
    };
}
//# sourceMappingURL=usage-flush.js.map