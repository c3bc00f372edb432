import { ChannelBreaker } from './breaker.js';
import { InFlightCalls } from './in-flight.js';
import { setClientStallTimeout } from './respond.js';
import { QuotaGate } from './quota-gate.js';
import { Settler } from './settler.js';
import { createUpstreamClient } from './upstream.js';
export function createRelayServices(config, db, log) {
    const upstream = createUpstreamClient({
        relayTimeoutSeconds: config.relayTimeoutSeconds,
        streamingTimeoutSeconds: config.streamingTimeoutSeconds,
        maxCallsPerOrigin: config.upstreamMaxConnections,
        http2: config.upstreamHttp2,
    });
    setClientStallTimeout(config.clientStallTimeoutSeconds * 1000);
    const settler = new Settler(db, log);
    settler.maxPending = config.settlementMaxPending;
    const quotaGate = new QuotaGate(db, () => settler.flushSoon());
    settler.onWritten = (batch) => {
        const users = [];
        for (const s of batch)
            if (s.reservation.amount > 0)
                users.push(s.reservation.userId);
        if (users.length > 0)
            quotaGate.settled(users);
    };
    return {
        upstream,
        settler,
        breaker: new ChannelBreaker(),
        calls: new InFlightCalls(),
        quotaGate,
        async close() {
            await settler.close();
            await upstream.close();
        },
    };
}
//# sourceMappingURL=services.js.map