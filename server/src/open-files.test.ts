import { describe, expect, it } from 'vitest';
import { filesNeeded, openFileLimit, openFilesWarning } from './open-files.js';

const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units     \nMax open files            ${soft}                524288               files     \n`;

describe('open-file limit at start', () => {
  it('reads the soft limit of this process', () => {
    expect(openFileLimit(limits('1024'))).toBe(1024);
    expect(openFileLimit(limits('unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(openFileLimit('')).toBeNull();
    // On Linux the real one is there.
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('warns when the limit cannot hold UPSTREAM_MAX_CONNECTIONS calls at two sockets each', () => {
    const warning = openFilesWarning(10_000, 1024);
    expect(warning).toContain('open-file limit 1024');
    expect(warning).toContain(`${filesNeeded(10_000)}`);
    expect(warning).toContain('about 384 calls');
    expect(openFilesWarning(10_000, filesNeeded(10_000))).toBeNull();
    expect(openFilesWarning(10_000, Number.POSITIVE_INFINITY)).toBeNull();
    expect(openFilesWarning(0, 1024)).toBeNull();
    expect(openFilesWarning(10_000, null)).toBeNull();
  });
});
