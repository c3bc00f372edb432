/*
 * What the primary process and its workers say to each other over the cluster's IPC channel. Every message carries
 * `sy` (its kind) so anything else on the channel is ignored.
 */

/**
 * A worker's bus message, passed by the primary to every other worker. `id` names it for the answers: a worker
 * tells the primary when it has applied a message (BusApplied), and the primary tells the publisher once every other
 * worker has (BusAck).
 */
export interface BusMessage {
  sy: 'bus';
  id: number;
  topic: string;
  message: string;
}

/** A worker has applied the bus message `id` the primary passed to it. */
export interface BusApplied {
  sy: 'bus-applied';
  id: number;
}

/** Every other worker has applied the publisher's bus message `id` (or did not answer in time). */
export interface BusAck {
  sy: 'bus-ack';
  id: number;
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

/** A worker asking the primary for the node's metrics (every worker's, merged). */
export interface MetricsRequest {
  sy: 'metrics';
  id: number;
}

export interface MetricsReply {
  sy: 'metrics-reply';
  id: number;
  text: string;
}

/**
 * The primary's shutdown order to a worker: drain (the first signal the node got), or stop the calls now (a second
 * one). Sent over IPC, not as a signal: a worker also hears the signal that reached the whole process group, and
 * two signals would read as the second.
 */
export interface StopOrder {
  sy: 'stop';
  now: boolean;
}

/**
 * A worker asking the primary for an upstream access token (relay/providers/shared-tokens.ts): one exchange per
 * node, not per worker. `stale` is the token the worker had for it, if any (expiring, or refused upstream): the
 * primary does not hand that one back.
 */
export interface TokenRequest {
  sy: 'token';
  id: number;
  cache: string;
  credential: unknown;
  stale: string | null;
}

export interface TokenReply {
  sy: 'token-reply';
  id: number;
  token?: string;
  expiresIn?: number;
  error?: { status: number; message: string; code: string; refused: boolean };
}

export type ClusterMessage = StopOrder | TokenRequest | TokenReply | BusMessage | BusApplied | BusAck | LimitRequest | LimitReply | MetricsRequest | MetricsReply;

export function isClusterMessage(m: unknown): m is ClusterMessage {
  return typeof m === 'object' && m !== null && typeof (m as { sy?: unknown }).sy === 'string';
}

/** Env of a worker: its index (1..n) — the process is one of several of a node, sharing its port. */
export const WORKER_ENV = 'SWITCHYARD_WORKER';

/** Env of a worker: the node's id on the Redis bus, the same for every worker of the node. */
export const NODE_ID_ENV = 'SWITCHYARD_NODE_ID';
