import { isClusterMessage, type MetricsRequest } from './messages.js';

/** The longest a scrape waits for the primary's merged figures. */
const REPLY_TIMEOUT_MS = 5_000;

let nextId = 1;
const waiting = new Map<number, { resolve(text: string): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  process.on('message', (m: unknown) => {
    if (!isClusterMessage(m) || m.sy !== 'metrics-reply') return;
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    clearTimeout(w.timer);
    w.resolve(m.text);
  });
}

/** The node's metrics, every worker's merged by the primary (cluster/primary.ts). */
export function clusterMetrics(): Promise<string> {
  listen();
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary did not answer with the metrics in time'));
    }, REPLY_TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
    if (!process.send) {
      waiting.delete(id);
      clearTimeout(timer);
      reject(new Error('not a worker'));
      return;
    }
    process.send({ sy: 'metrics', id } satisfies MetricsRequest);
  });
}
