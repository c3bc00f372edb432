/*
 * A parent that started the server with an IPC channel (Node's `spawn(..., { stdio: [..., 'ipc'] })`: a supervisor,
 * a test harness) is told the port once the server answers on it. With PORT=0 the system picks a free port at bind
 * time, so a parent running several servers at once never hands one a port another may take meanwhile. Under a
 * primary (cluster/primary.ts) the primary tells it, once every worker listens.
 */

export interface ListeningReport {
  sy: 'listening';
  port: number;
}

export const isListeningReport = (m: unknown): m is ListeningReport =>
  typeof m === 'object' && m !== null && (m as ListeningReport).sy === 'listening' && typeof (m as ListeningReport).port === 'number';

/** Sends the report when there is a parent channel, then lets the channel no longer keep the process alive. */
export function reportListening(port: number): void {
  if (!process.send || !process.connected) return;
  process.send({ sy: 'listening', port } satisfies ListeningReport);
  process.channel?.unref();
}
