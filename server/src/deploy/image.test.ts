import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startCommand } from '../../../scripts/start-command.mjs';
import { loadConfig } from '../config.js';
import { REPO_ROOT, startBuilt, type BuiltServer } from '../test/built-server.js';

/*
 * The Dockerfile and docker-compose.yml, as far as they can be checked without building an image: the image runs the
 * entry `npm start` runs with the same runtime flags, as a non-root user, its data in a volume; its HEALTHCHECK
 * command succeeds against the server started the way the image starts it and fails when the server is gone; the
 * Compose file wires Switchyard to PostgreSQL and Redis and waits for both to be healthy.
 */

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), by stage. */
function dockerfileStages(text: string): Instruction[][] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: Instruction[][] = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op.toUpperCase() === 'FROM') stages.push([]);
    stages.at(-1)?.push({ op: op.toUpperCase(), args: args.replace(/\s+/g, ' ') });
  }
  return stages;
}

function envOf(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.filter((i) => i.op === 'ENV')) {
    for (const [, k, v] of args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[k] = v;
  }
  return env;
}

const only = (stage: Instruction[], op: string) => {
  const found = stage.filter((i) => i.op === op);
  expect(found, op).toHaveLength(1);
  return found[0].args;
};

/** The exec form of CMD/HEALTHCHECK CMD. */
const execForm = (args: string) => JSON.parse(args.replace(/^.*?CMD\s+/, '')) as string[];

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Runs a health check command (`node -e ...`) against the server's port; true when it exits 0. */
function healthy(command: string[], port: number): boolean {
  expect(command[0]).toBe('node');
  try {
    execFileSync(process.execPath, command.slice(1), { env: { ...process.env, PORT: String(port) }, stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

describe('the Dockerfile', { timeout: 180_000 }, () => {
  const stages = dockerfileStages(read('Dockerfile'));
  const runtime = stages.at(-1)!;
  const env = envOf(runtime);

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }, 300_000);

  it('builds with every dependency and runs on a slim Node 20 with production dependencies and the three builds only', () => {
    const build = stages.find((s) => /\bAS build$/i.test(s[0].args))!;
    expect(build.filter((i) => i.op === 'RUN').map((i) => i.args)).toEqual(expect.arrayContaining(['npm ci', 'npm run build']));
    expect(read('Dockerfile')).toMatch(/^ARG NODE_IMAGE=node:20-[a-z]+-slim$/m);
    expect(runtime[0].args).toBe('${NODE_IMAGE} AS runtime');
    const deps = stages.find((s) => /\bAS deps$/i.test(s[0].args))!;
    expect(deps.some((i) => i.op === 'RUN' && i.args.startsWith('npm ci --omit=dev'))).toBe(true);
    const copied = runtime.filter((i) => i.op === 'COPY').map((i) => i.args);
    expect(copied).toEqual(expect.arrayContaining(['--from=deps /app/node_modules node_modules', '--from=build /app/server/dist server/dist', '--from=build /app/web/dist web/dist', '--from=build /app/packages/shared/dist packages/shared/dist']));
    expect(copied.filter((c) => !c.startsWith('--from='))).toEqual([]);
    expect(runtime.some((i) => i.op === 'RUN' && /npm (ci|install)/.test(i.args))).toBe(false);
  });

  it('runs the entry npm start runs, with its runtime flags, as a non-root user, on port 3000', () => {
    const start = startCommand()!;
    expect(execForm(only(runtime, 'CMD'))).toEqual(['node', ...start.flags, start.entry]);
    expect(runtime.some((i) => i.op === 'ENTRYPOINT')).toBe(false);
    for (const [k, v] of Object.entries(start.env)) expect(env[k], k).toBe(v);
    expect(only(runtime, 'USER')).toBe('node');
    expect(only(runtime, 'EXPOSE')).toBe('3000');
    expect(env.PORT).toBe('3000');
  });

  it('keeps the SQLite database in its volume', () => {
    const volumes = JSON.parse(only(runtime, 'VOLUME')) as string[];
    expect(volumes).toHaveLength(1);
    expect(path.posix.dirname(env.SQLITE_PATH)).toBe(volumes[0]);
    expect(runtime.some((i) => i.op === 'RUN' && i.args.includes(`chown node:node ${volumes[0]}`))).toBe(true);
  });

  it('has a HEALTHCHECK that passes against the server started as the image starts it and fails once it is gone', async () => {
    const check = execForm(only(runtime, 'HEALTHCHECK'));
    expect(check.join(' ')).toContain('/api/status');
    const cmd = execForm(only(runtime, 'CMD'));
    // The image's environment, but for the data folder and the port, which are the test's own.
    const imageEnv = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'SQLITE_PATH' && k !== 'PORT'));
    const server: BuiltServer = await startBuilt(cmd[0] === 'node' ? process.execPath : cmd[0], cmd.slice(1), { ...imageEnv, WORKERS: '1' });
    try {
      expect(healthy(check, server.port)).toBe(true);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
    expect(healthy(check, server.port)).toBe(false);
  });

  it('leaves dependencies, builds and data out of the build context but keeps what the Dockerfile copies', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', 'data', '.git']));
    const sources = stages.flatMap((s) => s.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from=')).map((i) => i.args.split(' ').slice(0, -1))).flat();
    for (const source of sources) {
      const excluded = ignored.some((p) => !p.startsWith('!') && (p === source || source.startsWith(`${p}/`)));
      const reincluded = ignored.includes(`!${source}`);
      expect(!excluded || reincluded, source).toBe(true);
    }
  });
});

interface ComposeService {
  build?: string;
  stop_grace_period?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; retries?: number };
}

describe('docker-compose.yml', { timeout: 60_000 }, () => {
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const { switchyard, postgres, redis } = compose.services;
  /** ${VAR:-default} as Compose expands it when VAR is unset. */
  const expand = (s: string) => s.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

  it('runs Switchyard, PostgreSQL and Redis', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'redis', 'switchyard']);
    expect(switchyard.build).toBe('.');
  });

  it('gives Switchyard more time to stop than a graceful shutdown takes', () => {
    const { shutdownTimeoutSeconds } = loadConfig({ ...switchyard.environment });
    expect(Number.parseInt(switchyard.stop_grace_period!, 10)).toBeGreaterThan(shutdownTimeoutSeconds);
    expect(switchyard.stop_grace_period).toMatch(/^\d+s$/);
  });

  it("points Switchyard at the PostgreSQL service's database and at the Redis service, with a session secret to set", () => {
    const dsn = new URL(expand(switchyard.environment!.SQL_DSN));
    const pg = postgres.environment!;
    expect(dsn.protocol).toBe('postgres:');
    expect([dsn.hostname, dsn.port, dsn.username, decodeURIComponent(dsn.password), dsn.pathname]).toEqual(['postgres', '5432', pg.POSTGRES_USER, expand(pg.POSTGRES_PASSWORD), `/${pg.POSTGRES_DB}`]);
    expect(switchyard.environment!.REDIS_CONN_STRING).toBe('redis://redis:6379');
    expect(switchyard.environment!.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:-.+\}$/);
  });

  it('starts Switchyard once both are healthy, each with a health check', () => {
    expect(switchyard.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(postgres.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(redis.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(switchyard.healthcheck!.test.join(' ')).toContain('/api/ready');
  });

  it('keeps every service data in a named volume', () => {
    const mounts = (s: ComposeService) => (s.volumes ?? []).map((v) => v.split(':'));
    expect(mounts(switchyard)).toContainEqual(['switchyard-data', path.posix.dirname(envOfImage().SQLITE_PATH)]);
    expect(mounts(postgres)).toContainEqual(['postgres-data', '/var/lib/postgresql/data']);
    expect(mounts(redis)).toContainEqual(['redis-data', '/data']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data', 'switchyard-data']);
  });

  it("has Switchyard's health check pass against a running server that reaches its database", async () => {
    const server = await startBuilt(process.execPath, ['server/dist/main.js'], { WORKERS: '1' });
    try {
      expect(healthy(switchyard.healthcheck!.test.slice(1), server.port)).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

function envOfImage(): Record<string, string> {
  return envOf(dockerfileStages(read('Dockerfile')).at(-1)!);
}
