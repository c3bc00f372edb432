import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportedPort } from './server-process.js';
import { closedPort } from './unreachable.js';

/*
 * The built server started as it is shipped (`npm start`, or `node server/dist/main.js` as the image runs it), from
 * the repository root, on a port and a SQLite folder of its own; timed from the spawn to the first answered
 * GET /api/status.
 *
 * Node itself binds PORT=0 and reports the port it got over an IPC channel (listening.ts), so no other test file can
 * take it meanwhile. npm keeps such a channel to itself, so `npm start` is given a port found free here; the suite
 * that starts it (start.test.ts) runs alone (vitest.config.ts).
 */

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

export interface BuiltServer {
  child: ChildProcess;
  port: number;
  url: string;
  /** From the spawn to the first 200 on /api/status. */
  startedInMs: number;
  output(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 20 s); removes the data folder. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startBuilt(command: string, args: string[], env: Record<string, string | undefined>): Promise<BuiltServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-built-'));
  const reports = command === process.execPath;
  const picked = reports ? 0 : await closedPort();
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', SQL_DSN: '', REDIS_CONN_STRING: '', SQLITE_PATH: path.join(dir, 'switchyard.db'), ...env, PORT: String(picked) })) {
    if (v !== undefined) childEnv[k] = v;
  }
  const started = Date.now();
  const child = spawn(command, args, { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe', ...(reports ? (['ipc'] as const) : [])] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const port = reports ? await reportedPort(child, () => output) : picked;
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited at start: ${output}`);
    const up = await fetch(`${url}/api/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startedInMs = Date.now() - started;
  return {
    child,
    port,
    url,
    startedInMs,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const exit = await exited;
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
      return exit;
    },
  };
}
