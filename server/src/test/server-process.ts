import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { staleReason } from '../../../scripts/build-if-stale.mjs';
import { isListeningReport } from '../listening.js';

/*
 * The server as operators run it: its own process, on a port of its own, with a SQLite file the test can open after
 * the process is gone. It runs the built bundle (dist/main.js, what `npm start` runs) when the build covers every
 * source, as in `npm test`, where the build step comes first; otherwise src/main.ts through tsx, which compiles each
 * of ~460 modules at every start: 2.5-3.4 s a process against 0.7 s, and each worker of a node pays it again (on a
 * loaded 2-core machine a two-worker node took over a minute to start that way). For what only a real process shows: signals, exit codes,
 * deadlines, a kill -9. With SQL_DSN (and REDIS_CONN_STRING) in `env` it runs on that database instead: several
 * processes on one database are nodes of one deployment.
 */

const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');

let built: boolean | undefined;

/** node's arguments for one of the server's programs ('main', 'import/main'): built when current, the source otherwise. */
export function serverEntry(program = 'main'): string[] {
  built ??= staleReason() === null;
  return built ? [`dist/${program}.js`] : ['--import', 'tsx', `src/${program}.ts`];
}

export interface ServerProcess {
  url: string;
  sqlitePath: string;
  child: ChildProcess;
  /** What the process wrote to stdout and stderr (JSON log lines). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and when it happened. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Signs in as root and returns console headers. */
  rootHeaders(): Promise<Record<string, string>>;
  /** A console call as root; throws the message of a refusal, returns `data`. */
  consoleApi(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** The pids of its workers (WORKERS above 1). */
  workerPids(): number[];
  /** Removes the data folder (after the process is gone). */
  cleanup(): void;
}

export interface ProcessOptions {
  /**
   * A process group of its own (as systemd or a container runtime starts it), so the test can signal the whole group
   * (`kill -- -PGID`) without signalling itself.
   */
  ownGroup?: boolean;
}

export async function startServerProcess(env: Record<string, string> = {}, opts: ProcessOptions = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-proc-'));
  const sqlitePath = path.join(dir, 'switchyard.db');
  const child = spawn(process.execPath, serverEntry(), {
    cwd: SERVER_ROOT,
    env: {
      ...process.env,
      // The system picks the port as the process binds it, and the process reports it (listening.ts): a port
      // picked here and bound later could be taken meanwhile by a test file running beside this one.
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: sqlitePath,
      SQL_DSN: '',
      REDIS_CONN_STRING: '',
      SESSION_SECRET: 'process-test-secret-process-test-secret',
      LOG_LEVEL: 'warn',
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
      // One process unless a test asks for workers (the default is one per core).
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: opts.ownGroup === true,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
  });
  const port = await reportedPort(child, () => output);
  const url = `http://127.0.0.1:${port}`;
  const rootHeaders = async () => {
    const res = await fetch(`${url}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password: '123456' }),
      });
    const body = (await res.json()) as { data: { id: number } };
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    return { cookie, 'new-api-user': String(body.data.id), 'content-type': 'application/json' };
  };
  return {
    url,
    sqlitePath,
    child,
    output: () => output,
    exited,
    rootHeaders,
    async consoleApi(method, path, body) {
      const res = await fetch(`${url}${path}`, { method, headers: await rootHeaders(), body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { success: boolean; message: string; data: Record<string, unknown> };
      if (!json.success) throw new Error(json.message);
      return json.data;
    },
    workerPids: () => workerPids(child.pid!),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The port a child started with PORT=0 and an IPC channel reports once it serves (listening.ts); throws with its
 * output when it exits first or takes over a minute.
 */
export async function reportedPort(child: ChildProcess, output: () => string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(new Error(`server did not start: ${output()}`));
    }, 60_000);
    const onMessage = (m: unknown) => {
      if (isListeningReport(m)) done(null, m.port);
    };
    const onExit = () => done(new Error(`server exited at start: ${output()}`));
    const done = (err: Error | null, port = 0) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(port);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** The rate limits as they ship (the process harness turns them off unless a test asks). */
export const DEFAULT_LIMITS: Record<string, string> = {
  GLOBAL_API_RATE_LIMIT_ENABLE: 'true',
  GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true',
  CRITICAL_RATE_LIMIT_ENABLE: 'true',
};

/**
 * A primary's worker processes, not its other children: the TypeScript loader's compiler services run while its
 * cache is cold, and their command line holds the checkout's path (which may well contain "main").
 */
export function workerPids(primary: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(primary), '-f', String.raw`/main\.[jt]s$`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number).sort();
  } catch {
    return [];
  }
}

/** Reads until `ok` holds, every 100 ms; throws with the last value after `timeoutMs`. */
export async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A request on a connection of its own, so a node's primary hands it to its next worker in turn. */
export const fresh = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), connection: 'close' } });
