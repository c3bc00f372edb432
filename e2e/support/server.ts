import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  baseUrl: string;
  /** The server's SQLite file, for setting up rows no console call creates. */
  databasePath: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (typeof addr === 'object' && addr) srv.close(() => resolve(addr.port));
      else reject(new Error('no port'));
    });
  });
}

/** What a browser suite changes from a production start (besides the port and a fresh SQLite file). */
const TEST_OVERRIDES = {
  // Every page and call of a test file comes from one address; the rate-limit tests switch these on.
  GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
  GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
  CRITICAL_RATE_LIMIT_ENABLE: 'false',
  // One process unless a test asks for workers (the default is one per core).
  WORKERS: '1',
};

/** The variables that change a default the overrides above switch off; a production-defaults start clears them. */
const DEFAULT_CHANGING = /^(GLOBAL_API_RATE_LIMIT|GLOBAL_WEB_RATE_LIMIT|CRITICAL_RATE_LIMIT|WORKERS$)/;

export interface StartOptions {
  /**
   * Start as an operator would, with every default: the per-address limits on and a worker per core. The suites
   * that pass this catch what the overrides hide (the console going blank under the web limit, state kept in one
   * worker's memory).
   */
  productionDefaults?: boolean;
}

/** Starts the built server (server/dist/main.js) on a free port with a brand-new SQLite database. */
export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const main = path.join(repoRoot, 'server/dist/main.js');
  if (!fs.existsSync(main)) throw new Error('server/dist/main.js is missing: run `npm run build` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-e2e-'));
  const port = await freePort();
  const databasePath = path.join(dir, 'e2e.db');
  const inherited = options.productionDefaults
    ? Object.fromEntries(Object.entries(process.env).filter(([name]) => !DEFAULT_CHANGING.test(name)))
    : process.env;
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: dir,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQL_DSN: '',
      SQLITE_PATH: databasePath,
      SESSION_SECRET: 'e2e-session-secret-e2e-session-secret',
      LOG_LEVEL: 'warn',
      REDIS_CONN_STRING: '',
      ...(options.productionDefaults ? {} : TEST_OVERRIDES),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/status`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not start within 30 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    databasePath,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
