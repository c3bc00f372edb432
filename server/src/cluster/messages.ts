/*
 * What the primary process and its workers say to each other over the cluster's IPC channel. Every message carries
 * `sy` (its kind) so anything else on the channel is ignored.
 */

/** A worker's bus message, passed by the primary to every other worker. */
export interface BusMessage {
  sy: 'bus';
  topic: string;
  message: string;
}

/** A worker asking the primary's limiter (in-memory limits shared by every worker when there is no Redis). */
export interface LimitRequest {
  sy: 'limit';
  id: number;
  op: 'admit' | 'waitMs' | 'record';
  args: unknown[];
}

export interface LimitReply {
  sy: 'limit-reply';
  id: number;
  result: number;
}

export type ClusterMessage = BusMessage | LimitRequest | LimitReply;

export function isClusterMessage(m: unknown): m is ClusterMessage {
  return typeof m === 'object' && m !== null && typeof (m as { sy?: unknown }).sy === 'string';
}

/** Env of a worker: its index (1..n) — the process is one of several of a node, sharing its port. */
export const WORKER_ENV = 'SWITCHYARD_WORKER';
