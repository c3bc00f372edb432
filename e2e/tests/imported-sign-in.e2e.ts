import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { incumbentDatabase, type IncumbentDb } from '../../server/src/test/incumbent-fixture.js';
import { connectBrowser, loginAs, newPage } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/*
 * A new-api database imported by the import command (as an operator runs it), then the server started on it: an imported user (bcrypt hash) signs in for the first
 * time, by email, and uses the console. The API and sign-in limits are at their production defaults.
 */

describe('the first sign-in after an import', () => {
  let incumbent: IncumbentDb;
  let target: string;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    incumbent = await incumbentDatabase('new-api', 'sqlite', { logs: 5 });
    target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-imported-')), 'switchyard.db');
    execFileSync(process.execPath, [path.join(repoRoot, 'server/dist/import/main.js'), `sqlite:${incumbent.location}`], {
      env: { ...process.env, SQL_DSN: '', SQLITE_PATH: target, LOG_LEVEL: 'warn' },
      stdio: 'pipe',
    });
    [server, browser] = await Promise.all([
      startServer({
        SQLITE_PATH: target,
        GLOBAL_API_RATE_LIMIT_ENABLE: 'true',
        CRITICAL_RATE_LIMIT_ENABLE: 'true',
        // Off (as the support server has it): the web limit still counts the console's own script files, so the third
        // page load from one address comes back blank; that limit has suites of its own.
      }),
      connectBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await incumbent?.drop();
    if (target) fs.rmSync(path.dirname(target), { recursive: true, force: true });
  });

  it('keeps the imported user signed in: the token page, a reload and the log page all work', async () => {
    const { page, context } = await newPage(browser, server.baseUrl);
    await loginAs(page, 'bob@example.com', 'password');
    await page.waitForURL(/\/token/);
    await page.getByRole('row').filter({ hasText: 'token-1' }).waitFor();
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'token-1' }).waitFor();
    await page.goto('/log');
    // The signed-in log page: its usage statistics, read with the session.
    await page.getByText(/^消耗额度: \$/).waitFor();
    expect(page.url()).not.toContain('/login');
    await context.close();
  });
});
