import { describe, expect, it } from 'vitest';
import { TokenCache, type TokenIssuer } from './token-cache.js';

/** An issuer handing out tok-1, tok-2 … with the given lifetime, recording the credentials it was asked for. */
function countingIssuer(lifetime = 3600) {
  const calls: string[] = [];
  const issue: TokenIssuer<string> = async (credential) => {
    calls.push(credential);
    await new Promise((r) => setTimeout(r, 5));
    return { token: `tok-${calls.length}`, expiresIn: lifetime };
  };
  return { calls, issue };
}

const byName = (c: string) => c;

describe('TokenCache', () => {
  it('issues one token per credential and reuses it', async () => {
    const { calls, issue } = countingIssuer();
    const cache = new TokenCache(byName, issue);
    expect(await cache.get('a')).toBe('tok-1');
    expect(await cache.get('b')).toBe('tok-2');
    expect(await cache.get('a')).toBe('tok-1');
    expect(calls).toEqual(['a', 'b']);
  });

  it('issues again once the token is within the margin of its expiry', async () => {
    let now = 1_000_000;
    const { calls, issue } = countingIssuer(3600);
    const cache = new TokenCache(byName, issue, () => now, 60_000);
    expect(await cache.get('a')).toBe('tok-1');
    now += (3600 - 60) * 1000 - 1;
    expect(await cache.get('a')).toBe('tok-1');
    now += 1;
    expect(await cache.get('a')).toBe('tok-2');
    expect(calls).toHaveLength(2);
  });

  it('shares one issue between concurrent calls for a credential', async () => {
    const { calls, issue } = countingIssuer();
    const cache = new TokenCache(byName, issue);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => cache.get('a')));
    expect(new Set(tokens)).toEqual(new Set(['tok-1']));
    expect(calls).toHaveLength(1);
  });

  it('does not remember a failed issue: the callers waiting on it all fail, the next call tries again', async () => {
    let fail = true;
    let calls = 0;
    const cache = new TokenCache(byName, async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      if (fail) throw new Error('refused');
      return { token: 'fresh', expiresIn: 3600 };
    });
    const concurrent = await Promise.allSettled([cache.get('a'), cache.get('a'), cache.get('a')]);
    expect(concurrent.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(calls).toBe(1);
    fail = false;
    expect(await cache.get('a')).toBe('fresh');
    expect(calls).toBe(2);
  });

  it('hands a token on with the lifetime it has left, and drops it only if it is still the one named stale', async () => {
    let now = 1_000_000;
    const { calls, issue } = countingIssuer(3600);
    const cache = new TokenCache(byName, issue, () => now, 60_000);
    expect(await cache.issued('a')).toEqual({ token: 'tok-1', expiresIn: 3600 });
    now += 600_000;
    expect(await cache.issued('a')).toEqual({ token: 'tok-1', expiresIn: 3000 });
    cache.dropIf('a', 'tok-0');
    expect(await cache.get('a')).toBe('tok-1');
    cache.dropIf('a', 'tok-1');
    expect(await cache.get('a')).toBe('tok-2');
    expect(calls).toEqual(['a', 'a']);
  });

  it('forgets a dropped token, so the next call issues a new one', async () => {
    const { calls, issue } = countingIssuer();
    const cache = new TokenCache(byName, issue);
    expect(await cache.get('a')).toBe('tok-1');
    cache.drop('a');
    expect(await cache.get('a')).toBe('tok-2');
    expect(calls).toHaveLength(2);
  });

  it('keeps at most maxEntries tokens, dropping expired ones first and then the oldest', async () => {
    const now = 0;
    const { calls, issue } = countingIssuer(3600);
    const cache = new TokenCache(byName, issue, () => now, 0, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('c');
    // "a" was the oldest: gone; "b" and "c" still served from the cache.
    expect(await cache.get('b')).toBe('tok-2');
    expect(await cache.get('c')).toBe('tok-3');
    expect(await cache.get('a')).toBe('tok-4');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
