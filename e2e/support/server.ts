import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isListeningReport } from '../../server/src/listening.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  baseUrl: string;
  /** The server's SQLite file, for setting up rows no console call creates. */
  databasePath: string;
  stop(): Promise<void>;
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
  const databasePath = path.join(dir, 'e2e.db');
  const inherited = options.productionDefaults
    ? Object.fromEntries(Object.entries(process.env).filter(([name]) => !DEFAULT_CHANGING.test(name)))
    : process.env;
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: dir,
    env: {
      ...inherited,
      // The system picks the port at bind time and the server reports it (server/src/listening.ts): files running
      // side by side never race for one.
      PORT: '0',
      HOST: '127.0.0.1',
      SQL_DSN: '',
      SQLITE_PATH: databasePath,
      SESSION_SECRET: 'e2e-session-secret-e2e-session-secret',
      LOG_LEVEL: 'warn',
      REDIS_CONN_STRING: '',
      ...(options.productionDefaults ? {} : TEST_OVERRIDES),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('server did not start within 30 s'));
    }, 30_000);
    child.on('message', (m) => {
      if (!isListeningReport(m)) return;
      clearTimeout(timer);
      resolve(m.port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}`));
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
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
