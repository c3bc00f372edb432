// Log queries on a big table. Fills `logs` with N rows (default 5,000,000) in SQLite and/or PostgreSQL, starts
// the real app on that database (server/dist, so build first) and times the console's log calls through it:
// GET /api/log/ and /api/log/self/ with the filters the log page sends (time range, user, token, model, channel,
// type and combinations; first page, a deep page by offset and, when the server offers it, the same deep page by
// cursor), the stat calls, and optionally DELETE /api/log/. Run by hand, from the repository root:
//
//   npm run build -w packages/shared && npm run build -w server
//   node bench/logs/run.mjs [--db sqlite,postgres] [--rows 5000000] [--runs 5] [--keep] [--only REGEX] [--delete]
//
//   --db       databases to measure (default both)
//   --pg URL   PostgreSQL admin URL (default postgres://root@127.0.0.1:5432/postgres); the bench creates the
//              database switchyard_logbench there and drops it at the end (kept with --keep)
//   --keep     keep the filled databases (SQLite: $TMPDIR/switchyard-logbench/logs-N.db); a later run with the same
//              --rows reuses them, applying any new migration first (its time on the full table is reported)
//   --fresh    refill even if a kept database exists
//   --runs N   timed calls per case after one warm-up call; the median is reported (default 5)
//   --only RE  only the cases whose name matches
//   --delete   also time clearing the oldest day (DELETE /api/log/?target_timestamp=); changes the kept data
//   --dist DIR another build of the server (e.g. an older commit's server/dist, for before/after numbers)
//
// Prints markdown tables (copy them into docs/log-queries.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { LOG_COLUMNS, MODELS, USERS, logRows, username } from './data.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const distArg = process.argv.indexOf('--dist');
const DIST = distArg > 0 ? path.resolve(process.argv[distArg + 1]) : path.join(ROOT, 'server/dist');
if (!fs.existsSync(path.join(DIST, 'app.js'))) {
  console.error('server/dist is missing: run `npm run build -w packages/shared && npm run build -w server` first');
  process.exit(1);
}
const { connect } = await import(path.join(DIST, 'db/connect.js'));
const { migrateToLatest } = await import(path.join(DIST, 'db/migrate.js'));
const { buildApp } = await import(path.join(DIST, 'app.js'));
const { loadConfig } = await import(path.join(DIST, 'config.js'));
const { hashPassword } = await import(path.join(DIST, 'auth/password.js'));

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres' },
    pg: { type: 'string', default: 'postgres://root@127.0.0.1:5432/postgres' },
    rows: { type: 'string', default: '5000000' },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
    delete: { type: 'boolean', default: false },
    dist: { type: 'string', default: '' },
  },
});
const ROWS = Number(args.rows);
const RUNS = Math.max(1, Number(args.runs));
const ONLY = args.only ? new RegExp(args.only) : null;
const PG_DB = 'switchyard_logbench';
const PASSWORD = 'password123';
/** A light user: rank 1200 of 2000 (a few hundred rows); rank 0 holds about an eighth of the table. */
const LIGHT = 1200;

const ms = (t0) => performance.now() - t0;
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- filling ----

async function seedUsers(db) {
  const hash = await hashPassword(PASSWORD);
  const now = Math.floor(Date.now() / 1000);
  for (let r = 0; r < USERS; r += 200) {
    const batch = [];
    for (let k = r; k < Math.min(USERS, r + 200); k++) {
      batch.push({
        username: username(k), password: hash, display_name: '', role: 1, status: 1, email: '', github_id: '', wechat_id: '',
        telegram_id: '', oidc_id: '', access_token: null, quota: 0, used_quota: 0, request_count: 0, group: 'default',
        aff_code: `bench${k}`, aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, setting: '', created_at: now,
        deleted_at: null,
      });
    }
    await db.kysely.insertInto('users').values(batch).execute();
  }
}

async function userIds(db) {
  const rows = await db.kysely.selectFrom('users').select(['id', 'username']).where('username', 'like', 'u%').execute();
  const byName = new Map(rows.map((r) => [r.username, r.id]));
  return Array.from({ length: USERS }, (_, k) => byName.get(username(k)));
}

function progress(done, t0) {
  if (done % 500_000 === 0) console.info(`  ${done.toLocaleString('en')} rows, ${(ms(t0) / 1000).toFixed(0)} s`);
}

async function fillSqlite(file, ids, end) {
  const { default: Sqlite } = await import('better-sqlite3');
  const raw = new Sqlite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = OFF');
  const stmt = raw.prepare(`INSERT INTO logs (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`);
  const insert = raw.transaction((batch) => {
    for (const row of batch) stmt.run(LOG_COLUMNS.map((c) => row[c]));
  });
  const t0 = performance.now();
  let batch = [];
  let done = 0;
  for (const row of logRows(ROWS, end, ids)) {
    batch.push(row);
    if (batch.length === 50_000) {
      insert(batch);
      done += batch.length;
      batch = [];
      progress(done, t0);
    }
  }
  if (batch.length) insert(batch);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
}

const PG_TYPES = {
  user_id: 'int', created_at: 'bigint', type: 'int', content: 'text', username: 'text', token_name: 'text', model_name: 'text',
  quota: 'bigint', prompt_tokens: 'int', completion_tokens: 'int', use_time: 'int', is_stream: 'int', channel_id: 'int',
  token_id: 'int', group: 'text', ip: 'text', other: 'text',
};

async function fillPostgres(dsn, ids, end) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: dsn, max: 2 });
  const sqlText = `INSERT INTO logs (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) SELECT * FROM unnest(${LOG_COLUMNS.map((c, i) => `$${i + 1}::${PG_TYPES[c]}[]`).join(', ')})`;
  const t0 = performance.now();
  const inflight = new Set();
  let cols = LOG_COLUMNS.map(() => []);
  let n = 0;
  let done = 0;
  const send = async () => {
    const params = cols;
    cols = LOG_COLUMNS.map(() => []);
    n = 0;
    const p = pool.query(sqlText, params).then(() => {
      inflight.delete(p);
      done += params[0].length;
      progress(done, t0);
    });
    inflight.add(p);
    if (inflight.size >= 2) await Promise.race(inflight);
  };
  for (const row of logRows(ROWS, end, ids)) {
    LOG_COLUMNS.forEach((c, i) => cols[i].push(row[c]));
    if (++n === 20_000) await send();
  }
  if (n) await send();
  await Promise.all(inflight);
  await pool.end();
}

// ---- databases ----

function sqliteTarget() {
  const dir = path.join(os.tmpdir(), 'switchyard-logbench');
  const file = path.join(dir, `logs-${ROWS}.db`);
  return {
    name: 'SQLite',
    env: { SQL_DSN: '', SQLITE_PATH: file },
    async open() {
      if (args.fresh || !fs.existsSync(file)) {
        fs.mkdirSync(dir, { recursive: true });
        for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
      }
      return connect('', file);
    },
    fill: (ids, end) => fillSqlite(file, ids, end),
    async analyze() {},
    async drop() {
      if (args.keep) return;
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    },
    size: () => fs.statSync(file).size,
  };
}

function pgTarget() {
  const url = new URL(args.pg);
  url.pathname = `/${PG_DB}`;
  const dsn = url.toString();
  let admin;
  return {
    name: 'PostgreSQL',
    env: { SQL_DSN: dsn },
    async open() {
      const { sql } = await import('kysely');
      admin = await connect(args.pg, '');
      const exists = await sql`select 1 from pg_database where datname = ${PG_DB}`.execute(admin.kysely);
      if (exists.rows.length && args.fresh) await sql`drop database ${sql.id(PG_DB)}`.execute(admin.kysely);
      if (!exists.rows.length || args.fresh) await sql`create database ${sql.id(PG_DB)}`.execute(admin.kysely);
      return connect(dsn, '');
    },
    fill: (ids, end) => fillPostgres(dsn, ids, end),
    async analyze(db) {
      // What autovacuum does to a table this size soon after the load: statistics and the visibility map.
      const { sql } = await import('kysely');
      await sql`vacuum analyze logs`.execute(db.kysely);
    },
    async drop() {
      const { sql } = await import('kysely');
      if (!args.keep) await sql`drop database if exists ${sql.id(PG_DB)}`.execute(admin.kysely);
      await admin.close();
    },
    async size(db) {
      const { sql } = await import('kysely');
      const r = await sql`select pg_total_relation_size('logs') as n`.execute(db.kysely);
      return Number(r.rows[0].n);
    },
  };
}

// ---- the calls ----

async function session(app, name, password) {
  const res = await app.inject({ method: 'POST', url: '/api/user/login', payload: { username: name, password } });
  const body = res.json();
  if (!body.success) throw new Error(`login ${name}: ${body.message}`);
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { cookie, 'new-api-user': String(body.data.id) };
}

async function call(app, headers, url) {
  const t0 = performance.now();
  const res = await app.inject({ method: 'GET', url, headers });
  const took = ms(t0);
  const body = res.json();
  if (!body.success) throw new Error(`${url}: ${res.statusCode} ${body.message}`);
  return { took, data: body.data };
}

async function timed(app, headers, url) {
  const first = await call(app, headers, url);
  // A call of several seconds says enough after two runs.
  const runs = first.took > 3000 ? 1 : RUNS;
  const times = [];
  let data = first.data;
  for (let i = 0; i < runs; i++) {
    const r = await call(app, headers, url);
    times.push(r.took);
    data = r.data;
  }
  return { ms: median(times), data };
}

const qs = (q) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();

function cases(end) {
  const day = { start_timestamp: end - 86400, end_timestamp: end + 3600 };
  const all = { start_timestamp: end - 40 * 86400, end_timestamp: end + 3600 };
  const rareModel = MODELS[MODELS.length - 1];
  return [
    ['last day (the default window)', 'admin', { ...day }],
    ['30 days', 'admin', { ...all }],
    ['last day, consume', 'admin', { ...day, type: 2 }],
    ['30 days, top-up', 'admin', { ...all, type: 1 }],
    ['last day, heavy user', 'admin', { ...day, username: username(0) }],
    ['30 days, heavy user', 'admin', { ...all, username: username(0) }],
    ['30 days, light user', 'admin', { ...all, username: username(LIGHT) }],
    ['last day, token "default"', 'admin', { ...day, token_name: 'default' }],
    ['30 days, token "default"', 'admin', { ...all, token_name: 'default' }],
    ['30 days, rare token', 'admin', { ...all, token_name: `key-${LIGHT + 1}` }],
    ['last day, top model', 'admin', { ...day, model_name: MODELS[0] }],
    ['30 days, top model', 'admin', { ...all, model_name: MODELS[0] }],
    ['30 days, rare model', 'admin', { ...all, model_name: rareModel }],
    ['last day, top channel', 'admin', { ...day, channel: 1 }],
    ['30 days, top channel', 'admin', { ...all, channel: 1 }],
    ['30 days, rare channel', 'admin', { ...all, channel: 50 }],
    ['30 days, heavy user + model + consume', 'admin', { ...all, username: username(0), model_name: MODELS[1], type: 2 }],
    ['30 days, token "default" + rare model', 'admin', { ...all, token_name: 'default', model_name: rareModel }],
    ['30 days, channel + model + consume', 'admin', { ...all, channel: 3, model_name: MODELS[2], type: 2 }],
    ['30 days, heavy user + channel', 'admin', { ...all, username: username(0), channel: 2 }],
    ['self (heavy), last day', 'heavy', { ...day }],
    ['self (heavy), 30 days', 'heavy', { ...all }],
    ['self (heavy), 30 days, model', 'heavy', { ...all, model_name: MODELS[3] }],
    ['self (heavy), 30 days, token "default"', 'heavy', { ...all, token_name: 'default' }],
    ['self (heavy), 30 days, top-up', 'heavy', { ...all, type: 1 }],
    ['self (light), 30 days', 'light', { ...all }],
  ];
}

async function measure(target) {
  const report = { name: target.name, setup: [], rows: [], stats: [] };
  let db = await target.open();
  let t0 = performance.now();
  await migrateToLatest(db);
  const migrated = ms(t0);
  const count = Number((await db.kysely.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()).n);
  if (count === 0) {
    report.setup.push(`schema created in ${fmt(migrated)} ms`);
    await seedUsers(db);
    const ids = await userIds(db);
    console.info(`${target.name}: filling ${ROWS.toLocaleString('en')} rows`);
    t0 = performance.now();
    await target.fill(ids, Math.floor(Date.now() / 1000));
    report.setup.push(`filled ${ROWS.toLocaleString('en')} rows in ${(ms(t0) / 1000).toFixed(0)} s (all indexes in place)`);
    t0 = performance.now();
    await target.analyze(db);
    if (target.name === 'PostgreSQL') report.setup.push(`vacuum analyze in ${(ms(t0) / 1000).toFixed(0)} s`);
  } else {
    if (count !== ROWS) throw new Error(`${target.name}: the kept database holds ${count} rows, not ${ROWS}: use --fresh`);
    report.setup.push(`reused the kept table; pending migrations applied in ${(migrated / 1000).toFixed(1)} s`);
    if (target.name === 'PostgreSQL') await target.analyze(db);
  }
  report.setup.push(`table + indexes: ${(Number(await target.size(db)) / 2 ** 30).toFixed(2)} GiB`);
  const end = Number((await db.kysely.selectFrom('logs').select((eb) => eb.fn.max('created_at').as('m')).executeTakeFirst()).m);
  await db.close();

  const config = loadConfig({ ...target.env, SESSION_SECRET: 'logbench-secret-logbench-secret-00', LOG_LEVEL: 'silent', SYNC_FREQUENCY: '3600' });
  const app = await buildApp(config, { logger: false });
  try {
    const who = {
      admin: await session(app, 'root', '123456'),
      heavy: await session(app, username(0), PASSWORD),
      light: await session(app, username(LIGHT), PASSWORD),
    };
    // How long the server's thread stood still during a case's calls: what every relay call in flight would wait.
    const stalls = monitorEventLoopDelay({ resolution: 5 });
    stalls.enable();
    for (const [name, as, query] of cases(end)) {
      if (ONLY && !ONLY.test(name)) continue;
      stalls.reset();
      const base = as === 'admin' ? '/api/log/' : '/api/log/self/';
      const first = await timed(app, who[as], `${base}?${qs({ p: 1, page_size: 10, ...query })}`);
      const total = first.data.total;
      const deepPage = Math.max(1, Math.min(1000, Math.ceil(total / 10)));
      const deep = await timed(app, who[as], `${base}?${qs({ p: deepPage, page_size: 10, ...query })}`);
      let keyset = null;
      if (first.data.next_cursor !== undefined && deepPage > 1) {
        const before = await call(app, who[as], `${base}?${qs({ p: deepPage - 1, page_size: 10, ...query })}`);
        if (before.data.next_cursor) {
          const byCursor = await timed(app, who[as], `${base}?${qs({ p: deepPage, page_size: 10, cursor: before.data.next_cursor, ...query })}`);
          const same = JSON.stringify(byCursor.data.items.map((r) => r.id)) === JSON.stringify(deep.data.items.map((r) => r.id));
          keyset = `${fmt(byCursor.ms)}${same ? '' : ' (differs!)'}`;
        }
      }
      const statUrl = as === 'admin' ? '/api/log/stat' : '/api/log/self/stat';
      const stat = await timed(app, who[as], `${statUrl}?${qs({ type: query.type ?? 0, ...query })}`);
      const stall = stalls.max / 1e6;
      report.rows.push({ name, total, capped: first.data.total_capped, first: first.ms, deepPage, deep: deep.ms, keyset, stat: stat.ms, stall });
      console.info(`  ${name}: total ${total}, p1 ${fmt(first.ms)} ms, p${deepPage} ${fmt(deep.ms)} ms${keyset ? `, cursor ${keyset} ms` : ''}, stat ${fmt(stat.ms)} ms, stall ${fmt(stall)} ms`);
    }
    stalls.disable();
    if (args.delete) {
      const oldest = Number((await app.ctx.db.kysely.selectFrom('logs').select((eb) => eb.fn.min('created_at').as('m')).executeTakeFirst()).m);
      stalls.reset();
      stalls.enable();
      const t1 = performance.now();
      const res = await app.inject({ method: 'DELETE', url: `/api/log/?target_timestamp=${oldest + 86400}`, headers: who.admin });
      const took = ms(t1);
      stalls.disable();
      report.setup.push(
        `DELETE /api/log/ of the oldest day: ${res.json().data} rows in ${(took / 1000).toFixed(1)} s (longest stall ${fmt(stalls.max / 1e6)} ms)`,
      );
    }
  } finally {
    await app.close();
  }
  return report;
}

function print(report) {
  const lines = [`### ${report.name}`, '', ...report.setup.map((s) => `- ${s}`), ''];
  lines.push('| case | total | page 1 | deep page (offset) | deep page (cursor) | stat | longest stall |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const r of report.rows) {
    const total = `${r.total.toLocaleString('en')}${r.capped ? '+' : ''}`;
    lines.push(`| ${r.name} | ${total} | ${fmt(r.first)} | p${r.deepPage}: ${fmt(r.deep)} | ${r.keyset ?? '–'} | ${fmt(r.stat)} | ${fmt(r.stall)} |`);
  }
  lines.push(
    '',
    'Times in ms: median of the timed calls (app.inject through the real route, session and envelope included).',
    'Longest stall: the longest the server thread was blocked during the case (event-loop delay), i.e. what a relay call in flight would have waited.',
    '',
  );
  console.log(lines.join('\n'));
}

const targets = args.db.split(',').map((d) => (d.trim() === 'sqlite' ? sqliteTarget() : pgTarget()));
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`Log query benchmark: ${ROWS.toLocaleString('en')} rows, ${RUNS} timed runs per call, node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${load()}\n`);
for (const target of targets) {
  let report;
  try {
    report = await measure(target);
  } finally {
    await target.drop();
  }
  print(report);
  console.log(`(load average after ${target.name}: ${load()})\n`);
}
