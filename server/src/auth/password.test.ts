import { execFileSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import { hashPassword, needsRehash, UNKNOWN_USER_HASH, verifyPassword } from './password.js';

describe('passwords', () => {
  it('verifies what it hashed, and nothing else', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
  });

  it('still verifies hashes stored with earlier parameters', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('old secret', salt, 32, { N: 16384, r: 8, p: 1 });
    const stored = ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    expect(await verifyPassword('old secret', stored)).toBe(true);
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

  it('never accepts a password for the stand-in hash of unknown users', async () => {
    expect(await verifyPassword('', UNKNOWN_USER_HASH)).toBe(false);
    expect(await verifyPassword('123456', UNKNOWN_USER_HASH)).toBe(false);
  });

  it('refuses stored parameters that would take more memory than the ceiling', async () => {
    await expect(verifyPassword('x', 'scrypt$4194304$8$1$AAAA$AAAA')).rejects.toThrow();
  });

  it.runIf(process.platform === 'linux')('gives the memory of parallel hashes back (no 16 MiB kept per pool thread)', () => {
    // In a fresh process: six hashes at once on the thread pool, three times, then the resident size.
    const script = `
      const { hashPassword } = await import(${JSON.stringify(new URL('./password.ts', import.meta.url).href)});
      const fs = await import('node:fs');
      const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
      const before = rss();
      for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: 6 }, () => hashPassword('password')));
      console.log(JSON.stringify({ grew: rss() - before }));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { grew } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { grew: number };
    expect(grew).toBeLessThan(16);
  });
});
