import { execFileSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import {
  hashPassword,
  needsRehash,
  PRODUCTION_COST,
  TEST_COST,
  unknownUserHash,
  useProductionPasswordCost,
  useTestPasswordCost,
  verifyPassword,
  type ScryptCost,
} from './password.js';

const PASSWORD_MODULE = JSON.stringify(new URL('./password.ts', import.meta.url).href);

/** A fresh process (no test setup) running `script` with password.ts imported as `pw`; its last line, parsed. */
function inFreshProcess<T>(script: string, env: NodeJS.ProcessEnv = process.env): T {
  const code = `const pw = await import(${PASSWORD_MODULE});\n${script}`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', env });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as T;
}

/** A hash as an earlier version (or another cost) stored it. */
function storedAt(password: string, { N, r, p }: ScryptCost): string {
  const salt = Buffer.from('0123456789abcdef');
  const key = scryptSync(password, salt, 32, { N, r, p, maxmem: 256 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

// The rest of the server suite hashes at TEST_COST (test/low-password-cost.ts); this file proves the real cost.
beforeAll(useProductionPasswordCost);
afterAll(useTestPasswordCost);

describe('passwords', () => {
  it('verifies what it hashed, and nothing else', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
  });

  it('hashes at the production cost in a process that did not ask for less', () => {
    const made = inFreshProcess<{ prefix: string }>(`console.log(JSON.stringify({ prefix: (await pw.hashPassword('x')).split('$').slice(0, 4).join('$') }));`);
    expect(made.prefix).toBe(`scrypt$${PRODUCTION_COST.N}$${PRODUCTION_COST.r}$${PRODUCTION_COST.p}`);
  });

  it('refuses the test cost under NODE_ENV=production and outside a Vitest run', async () => {
    const saved = { NODE_ENV: process.env.NODE_ENV, VITEST: process.env.VITEST };
    try {
      for (const env of [{ NODE_ENV: 'production' }, { VITEST: '' }]) {
        Object.assign(process.env, saved, env);
        expect(() => useTestPasswordCost()).toThrow(/only for test runs/);
        expect(await hashPassword('x')).toMatch(/^scrypt\$32768\$8\$1\$/);
      }
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('still verifies hashes stored with earlier parameters, and marks them for replacement', async () => {
    const stored = storedAt('old secret', { N: 16384, r: 8, p: 1 });
    expect(await verifyPassword('old secret', stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash(storedAt('x', PRODUCTION_COST))).toBe(false);
  });

  it('verifies a hash made at the test cost, and marks it for replacement at the first login', async () => {
    useTestPasswordCost();
    const cheap = await hashPassword('test secret');
    expect(cheap).toMatch(new RegExp(`^scrypt\\$${TEST_COST.N}\\$${TEST_COST.r}\\$${TEST_COST.p}\\$`));
    // Under the test cost itself such a hash is current.
    expect(needsRehash(cheap)).toBe(false);
    useProductionPasswordCost();
    expect(await verifyPassword('test secret', cheap)).toBe(true);
    expect(await verifyPassword('test secreT', cheap)).toBe(false);
    expect(needsRehash(cheap)).toBe(true);
  });

  it('verifies bcrypt hashes of imported accounts ($2a$ as Go writes them, $2b$, $2y$) and marks them for replacement', async () => {
    // A widely published hash of "password" made by another implementation (PHP's), cost 10 like Go's default.
    const published = '$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';
    expect(await verifyPassword('password', published)).toBe(true);
    expect(await verifyPassword('Password', published)).toBe(false);
    expect(needsRehash(published)).toBe(true);
    const b = bcrypt.hashSync('secret pass', 4);
    for (const prefix of ['$2a$', '$2b$', '$2y$']) expect(await verifyPassword('secret pass', prefix + b.slice(4))).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });

  it('never accepts a password for the stand-in hash of unknown users, which costs what a real hash does', async () => {
    expect(unknownUserHash()).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('', unknownUserHash())).toBe(false);
    expect(await verifyPassword('123456', unknownUserHash())).toBe(false);
  });

  it('refuses stored parameters that would take more memory than the ceiling', async () => {
    await expect(verifyPassword('x', 'scrypt$4194304$8$1$AAAA$AAAA')).rejects.toThrow();
  });

  it.runIf(process.platform === 'linux')('gives the memory of parallel hashes back (no 16 MiB kept per pool thread)', () => {
    // In a fresh process: six hashes at once on the thread pool, three times, then the resident size.
    const { grew } = inFreshProcess<{ grew: number }>(`
      const fs = await import('node:fs');
      const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
      const before = rss();
      for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: 6 }, () => pw.hashPassword('password')));
      console.log(JSON.stringify({ grew: rss() - before }));
    `);
    expect(grew).toBeLessThan(16);
  });
});
