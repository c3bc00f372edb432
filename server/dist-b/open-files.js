import { readFileSync } from 'node:fs';
/*
 * Each call relayed over HTTP/1.1 holds two sockets (the client's and the upstream's), and a process cannot open
 * more files than its soft RLIMIT_NOFILE: past it, accept() and connect() fail with EMFILE. Node cannot raise the
 * limit itself, so the start-up only reads it and says when it is below what the configured limits need
 * (README, "Open files", tells how to raise it).
 */
/** Files besides the calls' sockets: database, Redis, logs, listening sockets, the runtime's own. */
const RESERVE = 256;
/** The soft open-file limit from /proc/self/limits (Linux), or null where it cannot be read. */
export function openFileLimit(limits = readLimits()) {
    const line = limits?.split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.trim().split(/\s+/)[3];
    if (!soft)
        return null;
    if (soft === 'unlimited')
        return Number.POSITIVE_INFINITY;
    const n = Number(soft);
    return Number.isFinite(n) ? n : null;
}
function readLimits() {
    try {
        return readFileSync('/proc/self/limits', 'utf8');
    }
    catch {
        return null;
    }
}
/** Open files that `maxCallsPerOrigin` calls to one upstream origin need at once. */
export function filesNeeded(maxCallsPerOrigin) {
    return 2 * maxCallsPerOrigin + RESERVE;
}
/** A warning when the limit is below what the configuration needs; null when it is not (or cannot be told). */
export function openFilesWarning(maxCallsPerOrigin, limit = openFileLimit()) {
    if (limit === null || maxCallsPerOrigin <= 0)
        return null;
    const needed = filesNeeded(maxCallsPerOrigin);
    if (limit >= needed)
        return null;
    const calls = Math.max(0, Math.floor((limit - RESERVE) / 2));
    return (`open-file limit ${limit} is below the ${needed} that UPSTREAM_MAX_CONNECTIONS=${maxCallsPerOrigin} needs ` +
        `(two sockets per call): past about ${calls} calls at once, new connections fail. ` +
        'Raise it (ulimit -n, LimitNOFILE= in systemd, --ulimit nofile= in Docker) or lower UPSTREAM_MAX_CONNECTIONS.');
}
//# sourceMappingURL=open-files.js.map