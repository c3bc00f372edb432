import { describe, expect, it } from 'vitest';
import { createBus, LocalBus, type Bus, type RedisBus } from '../../cache/bus.js';
import { Options } from '../../options/index.js';
import { testDatabases } from '../../test/databases.js';
import { itWithServices, testRedisUrl } from '../../test/services.js';
import { migratedDatabase } from '../../test/migrated-database.js';
import { sensitiveWordMatcher, wordList } from './index.js';

/** Buses of nodes in one process: what one publishes, the others hear (as Redis pub/sub delivers it). */
function linkedBuses(count: number): Bus[] {
  const buses: Array<Bus & { deliver(topic: string, message: string): void }> = [];
  for (let i = 0; i < count; i++) {
    const handlers = new Map<string, Array<(m: string) => void>>();
    buses.push({
      nodeId: `node-${i}`,
      async publish(topic, message) {
        for (const other of buses) if (other !== buses[i]) other.deliver(topic, message);
      },
      subscribe(topic, handler) {
        handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
      },
      deliver(topic, message) {
        for (const h of handlers.get(topic) ?? []) h(message);
      },
      async close() {},
    });
  }
  return buses;
}

describe('word list', () => {
  it('takes one word per line, trimmed, blank lines dropped', () => {
    expect(wordList(' a \r\n\n b\nc d\n  \n')).toEqual(['a', 'b', 'c d']);
    expect(wordList('')).toEqual([]);
  });
});

describe.each(testDatabases())('the matcher of the options on $name', (database) => {
  const db = migratedDatabase(database);

  it('is built once per word list, rebuilt when SensitiveWords changes, and absent for an empty list', async () => {
    const options = new Options(db().kysely, new LocalBus());
    await options.load();
    const first = sensitiveWordMatcher(options);
    expect(first?.find('a TEST_SENSITIVE b')).toEqual(['test_sensitive']);
    expect(sensitiveWordMatcher(options)).toBe(first);
    // Another option's change drops the derived values; the same list gives back the same matcher.
    expect(await options.set('RetryTimes', '2')).toBeNull();
    expect(sensitiveWordMatcher(options)).toBe(first);

    expect(await options.set('SensitiveWords', '违禁\nBad Word')).toBeNull();
    const second = sensitiveWordMatcher(options);
    expect(second).not.toBe(first);
    expect(second?.find('a bad word, 违禁, test_sensitive')).toEqual(['Bad Word', '违禁']);

    expect(await options.set('SensitiveWords', ' \n\n')).toBeNull();
    expect(sensitiveWordMatcher(options)).toBeNull();
    expect(await options.set('SensitiveWords', 'test_sensitive')).toBeNull();
  });

  it('follows a change made on another node', async () => {
    const [busA, busB] = linkedBuses(2);
    const a = new Options(db().kysely, busA);
    const b = new Options(db().kysely, busB);
    await Promise.all([a.load(), b.load()]);
    expect(sensitiveWordMatcher(b)?.find('node words')).toEqual([]);
    expect(await a.set('SensitiveWords', 'node words')).toBeNull();
    await expect.poll(() => sensitiveWordMatcher(b)?.find('some NODE WORDS here')).toEqual(['node words']);
    expect(await a.set('SensitiveWords', 'test_sensitive')).toBeNull();
    await expect.poll(() => sensitiveWordMatcher(b)?.find('some node words here')).toEqual([]);
  });

  itWithServices(['redis'], 'follows a change made on another node through Redis', async () => {
    const url = testRedisUrl();
    const busA = (await createBus(url)) as RedisBus;
    const busB = (await createBus(url)) as RedisBus;
    const a = new Options(db().kysely, busA);
    const b = new Options(db().kysely, busB);
    try {
      await Promise.all([a.load(), b.load(), busA.ready(), busB.ready()]);
      expect(sensitiveWordMatcher(b)?.find('redis word')).toEqual([]);
      expect(await a.set('SensitiveWords', 'redis word')).toBeNull();
      await expect.poll(() => sensitiveWordMatcher(b)?.find('a Redis Word'), { timeout: 5000 }).toEqual(['redis word']);
    } finally {
      await a.set('SensitiveWords', 'test_sensitive');
      // Closed only once the other node has reloaded (its reload reads the database, dropped after the suite).
      await expect.poll(() => b.get('SensitiveWords'), { timeout: 5000 }).toBe('test_sensitive');
      await busA.close();
      await busB.close();
    }
  });
});
