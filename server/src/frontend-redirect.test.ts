import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { connect, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { NO_ADDRESS_LIMITS } from './test/app.js';

describe('a slave node with FRONTEND_BASE_URL', () => {
  let db: Db;
  let app: FastifyInstance;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    db = await connect('', ':memory:');
    // The master migrates; a slave starts on the prepared database.
    await migrateToLatest(db);
    const config = loadConfig({
      ...NO_ADDRESS_LIMITS,
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 'test-secret-test-secret-test-secret',
      NODE_TYPE: 'slave',
      FRONTEND_BASE_URL: 'https://console.example.com/',
      WEB_DIST: webDist,
    });
    app = await buildApp(config, { db, logger: false });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('sends the console pages to the main console with 301', async () => {
    for (const url of ['/', '/token?p=2', '/assets/app.js', '/portal/index.html']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location).toBe(`https://console.example.com${url}`);
    }
  });

  it('still answers the API and the relay itself', async () => {
    const status = await app.inject({ method: 'GET', url: '/api/status' });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ success: true });
    const missing = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(missing.statusCode).toBe(404);
    const relay = await app.inject({ method: 'GET', url: '/v1/models' });
    expect(relay.statusCode).toBe(401);
  });
});
