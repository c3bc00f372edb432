import { spawn, type ChildProcess } from 'node:child_process';
import { closedPort, probePort } from './unreachable.js';

/*
 * A Redis of the test's own (`redis-server` on a free port, nothing saved), so a test can kill it mid-load and bring
 * it back on the same port, as an operator's Redis restart or crash would look to the relay. A suite that starts one
 * declares it through services.ts (`'redis-server'`), so it is recorded as skipped where the binary is missing.
 */

export interface PrivateRedis {
  url: string;
  /** Kills the server at once (SIGKILL). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await closedPort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while ((await probePort(port)) !== 'open') {
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, restart: start, close: kill };
}
