import type { Worker } from 'node:cluster';
import { describe, expect, it, vi } from 'vitest';
import { BusRelay } from './bus-relay.js';

/*
 * The primary passing a cache change between workers: the publisher hears back once every other worker applied it,
 * and a worker that never answers holds it up only until the timeout, named in the log.
 */

function fakeWorker(pid: number) {
  const sent: Array<Record<string, unknown>> = [];
  const worker = { process: { pid }, isConnected: () => true, send: (m: Record<string, unknown>) => sent.push(m) };
  return { worker: worker as unknown as Worker, sent };
}

const message = { sy: 'bus' as const, id: 7, topic: 'token', message: 'sk-1' };

describe('the primary relaying cache changes', () => {
  it('answers the publisher once every other worker has applied the change', () => {
    const [a, b, c] = [fakeWorker(1), fakeWorker(2), fakeWorker(3)];
    const relay = new BusRelay(() => [a.worker, b.worker, c.worker], () => true, { warn: () => {} });
    relay.publish(a.worker, message);
    expect(a.sent).toEqual([]);
    const relayedId = b.sent[0].id as number;
    expect(c.sent).toEqual([{ ...message, id: relayedId }]);
    relay.applied(b.worker, relayedId);
    expect(a.sent).toEqual([]);
    relay.applied(c.worker, relayedId);
    expect(a.sent).toEqual([{ sy: 'bus-ack', id: 7 }]);
  });

  it('answers at once when there is no other worker, and when the last one it waited for exits', () => {
    const [a, b] = [fakeWorker(1), fakeWorker(2)];
    const alone = new BusRelay(() => [a.worker], () => true, { warn: () => {} });
    alone.publish(a.worker, message);
    expect(a.sent).toEqual([{ sy: 'bus-ack', id: 7 }]);
    a.sent.length = 0;
    const relay = new BusRelay(() => [a.worker, b.worker], () => true, { warn: () => {} });
    relay.publish(a.worker, message);
    relay.gone(b.worker);
    expect(a.sent).toEqual([{ sy: 'bus-ack', id: 7 }]);
  });

  it('passes the change to a worker still starting without waiting for it', () => {
    const [a, b] = [fakeWorker(1), fakeWorker(2)];
    const relay = new BusRelay(() => [a.worker, b.worker], (w) => w !== b.worker, { warn: () => {} });
    relay.publish(a.worker, message);
    expect(b.sent).toHaveLength(1);
    expect(a.sent).toEqual([{ sy: 'bus-ack', id: 7 }]);
  });

  it('answers after the timeout when a worker does not, and names that worker in the log', () => {
    vi.useFakeTimers();
    try {
      const [a, b] = [fakeWorker(1), fakeWorker(2)];
      const warnings: object[] = [];
      const relay = new BusRelay(() => [a.worker, b.worker], () => true, { warn: (obj) => warnings.push(obj) }, 1000);
      relay.publish(a.worker, message);
      vi.advanceTimersByTime(999);
      expect(a.sent).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(a.sent).toEqual([{ sy: 'bus-ack', id: 7 }]);
      expect(warnings).toEqual([{ workers: [2], timeoutMs: 1000 }]);
    } finally {
      vi.useRealTimers();
    }
  });
});
