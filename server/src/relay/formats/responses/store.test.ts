import { describe, expect, it, vi } from 'vitest';
import { newIdBase, responseId } from './ids.js';
import { ResponsesKeeper, STATE, type Found, type KeeperLimits, type ResponsesBackend, type StoreLimits, type StoreRow, type WriteOutcome } from './store.js';
import type { ResponseObject } from './types.js';

/** An in-memory backend that records its writes and can refuse rows. */
class MemoryBackend implements ResponsesBackend {
  rows = new Map<string, StoreRow>();
  writes: StoreRow[][] = [];
  /** Ids written rows are refused for (as a database refuses one row). */
  refuse = new Set<string>();
  down = false;
  closed = false;

  async read(userId: number, ids: readonly string[], withInput: boolean): Promise<Map<string, Found>> {
    if (this.down) throw new Error('database unavailable');
    const out = new Map<string, Found>();
    for (const id of ids) {
      const r = this.rows.get(id);
      if (!r || r.userId !== userId) continue;
      out.set(
        id,
        r.state === STATE.stored
          ? { state: STATE.stored, createdAt: r.createdAt, response: JSON.parse(r.response) as ResponseObject, input: withInput ? JSON.parse(r.input) : undefined }
          : { state: r.state, createdAt: r.createdAt },
      );
    }
    return out;
  }

  evictions: Array<[number, StoreLimits]> = [];

  async evict(userId: number, limits: StoreLimits): Promise<void> {
    this.evictions.push([userId, limits]);
  }

  async write(rows: readonly StoreRow[]): Promise<WriteOutcome> {
    if (this.down) throw new Error('database unavailable');
    this.writes.push([...rows]);
    const outcome: WriteOutcome = { failed: [], errors: [] };
    for (const r of rows) {
      if (this.refuse.has(r.id)) {
        outcome.failed.push(r.id);
        outcome.errors.push(new Error(`refused ${r.id}`));
      } else this.rows.set(r.id, r);
    }
    return outcome;
  }

  async delete(userId: number, id: string): Promise<boolean> {
    if (this.down) throw new Error('database unavailable');
    const r = this.rows.get(id);
    if (!r || r.userId !== userId) return false;
    this.rows.delete(id);
    return true;
  }

  async expire(cutoff: number): Promise<number> {
    let n = 0;
    for (const [id, r] of this.rows) if (r.createdAt < cutoff && this.rows.delete(id)) n++;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

const LIMITS: KeeperLimits = { retentionSeconds: 30 * 86_400, maxResponseBytes: 64 * 1024, maxUserBytes: 1024 * 1024 };

function kept(userId: number, text = 'Hello', createdAt = Math.floor(Date.now() / 1000)) {
  const base = newIdBase();
  const id = responseId(base);
  const response = { id, object: 'response', created_at: createdAt, output: [{ id: `msg_${base}_0`, type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }] };
  return { id, base, userId, createdAt, response: response as unknown as ResponseObject, input: 'Say hello' };
}

function keeperOver(backend: MemoryBackend, limits: Partial<KeeperLimits> = {}, options = {}) {
  return new ResponsesKeeper(backend, () => ({ ...LIMITS, ...limits }), { intervalMs: 10_000, ...options });
}

describe('the Responses keeper', () => {
  it('writes nothing while the call is answered, then the whole batch at once', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend);
    const a = kept(1);
    const b = kept(1);
    keeper.keep(a);
    keeper.keep(b);
    expect(backend.writes).toHaveLength(0);
    expect(keeper.waiting).toBe(2);
    await keeper.flush();
    expect(backend.writes.map((w) => w.map((r) => r.id))).toEqual([[a.id, b.id]]);
  });

  it('has a response in the backend when keepNow resolves, and writes answers finishing together in one write', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend);
    const first = kept(1);
    await keeper.keepNow(first);
    expect(backend.rows.has(first.id)).toBe(true);
    // Three answers end while one write is in progress: the next write takes the three together.
    let release!: () => void;
    let writing!: () => void;
    const inProgress = new Promise<void>((r) => (writing = r));
    const slow = backend.write.bind(backend);
    backend.write = async (rows) => {
      const held = new Promise<void>((r) => (release = r));
      writing();
      await held;
      backend.write = slow;
      return slow(rows);
    };
    const busy = keeper.keepNow(kept(1));
    await inProgress;
    // keepNow queues its answer before it waits.
    const together = [kept(1), kept(2), kept(1)];
    const waiting = together.map((k) => keeper.keepNow(k));
    release();
    await Promise.all([busy, ...waiting]);
    expect(together.every((k) => backend.rows.has(k.id))).toBe(true);
    expect(backend.writes.at(-1)!.map((r) => r.id)).toEqual(together.map((k) => k.id));
  });

  it('answers keepNow even when the write fails, and writes the response with a later batch', async () => {
    vi.useFakeTimers();
    try {
      const backend = new MemoryBackend();
      const keeper = keeperOver(backend);
      const a = kept(1);
      backend.down = true;
      await keeper.keepNow(a);
      expect(await keeper.findOne(1, a.id, false)).toMatchObject({ state: STATE.stored });
      backend.down = false;
      await vi.advanceTimersByTimeAsync(1000);
      expect(backend.rows.has(a.id)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes after the interval or as soon as a batch is full', async () => {
    vi.useFakeTimers();
    try {
      const backend = new MemoryBackend();
      const keeper = new ResponsesKeeper(backend, () => LIMITS, { intervalMs: 100, maxBatch: 3 });
      keeper.keep(kept(1));
      await vi.advanceTimersByTimeAsync(99);
      expect(backend.writes).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(backend.writes).toHaveLength(1);
      keeper.keep(kept(1));
      keeper.keep(kept(1));
      keeper.keep(kept(1));
      await vi.advanceTimersByTimeAsync(0);
      expect(backend.writes).toHaveLength(2);
      expect(backend.writes[1]).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a response from memory before it is written, to its user only', async () => {
    const keeper = keeperOver(new MemoryBackend());
    const a = kept(1);
    keeper.keep(a);
    const found = await keeper.findOne(1, a.id, true);
    expect(found).toMatchObject({ state: STATE.stored, response: a.response });
    expect(found?.state === STATE.stored && found.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello' }], id: `msg_${a.base}_i0` },
    ]);
    expect(await keeper.findOne(2, a.id, true)).toBeUndefined();
  });

  it('stores the input with an id on every item and the same answer before and after the write', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend);
    const a = { ...kept(1), input: [{ role: 'user', content: 'Hi' }, { type: 'function_call_output', call_id: 'c1', output: '18°C' }, { type: 'message', role: 'assistant', content: 'Yo', id: 'msg_given' }] };
    keeper.keep(a);
    const before = await keeper.findOne(1, a.id, true);
    await keeper.flush();
    const after = await keeper.findOne(1, a.id, true);
    expect(after).toEqual(before);
    expect(after?.state === STATE.stored && after.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }], id: `msg_${a.base}_i0` },
      { type: 'function_call_output', call_id: 'c1', output: '18°C', id: `fco_${a.base}_i1` },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Yo' }], id: 'msg_given' },
    ]);
  });

  it('keeps only a marker for a response over ResponsesMaxResponseMB, before and after the write', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend, { maxResponseBytes: 2000 });
    const big = kept(1, 'x'.repeat(3000));
    const small = kept(1, 'fits');
    keeper.keep(big);
    keeper.keep(small);
    expect(await keeper.findOne(1, big.id, false)).toEqual({ state: STATE.tooLarge, createdAt: big.createdAt });
    await keeper.flush();
    expect(backend.rows.get(big.id)).toMatchObject({ state: STATE.tooLarge, bytes: 0, response: '', input: '' });
    expect(await keeper.findOne(1, big.id, false)).toEqual({ state: STATE.tooLarge, createdAt: big.createdAt });
    expect((await keeper.findOne(1, small.id, false))?.state).toBe(STATE.stored);
  });

  it('leaves out responses older than ResponsesRetentionDays, and expire() deletes them', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend, { retentionSeconds: 3600 });
    const old = kept(1, 'old', Math.floor(Date.now() / 1000) - 3601);
    const fresh = kept(1, 'fresh');
    keeper.keep(old);
    keeper.keep(fresh);
    await keeper.flush();
    expect(await keeper.findOne(1, old.id, false)).toBeUndefined();
    expect(await keeper.findOne(1, fresh.id, false)).toBeDefined();
    expect(await keeper.expire()).toBe(1);
    expect(backend.rows.has(old.id)).toBe(false);
  });

  it('deletes a response that is still waiting to be written, so it is never written', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend);
    const a = kept(1);
    keeper.keep(a);
    expect(await keeper.remove(2, a.id)).toBe(false);
    expect(await keeper.remove(1, a.id)).toBe(true);
    await keeper.flush();
    expect(backend.rows.size).toBe(0);
    expect(await keeper.findOne(1, a.id, false)).toBeUndefined();
    expect(await keeper.remove(1, a.id)).toBe(false);
  });

  it('writes the other responses of a batch when one is refused, and tries the refused one again later', async () => {
    const backend = new MemoryBackend();
    const errors: Array<[number, number]> = [];
    const keeper = keeperOver(backend, {}, { onError: (_err: unknown, failed: number, givenUp: number) => errors.push([failed, givenUp]) });
    const good = kept(1);
    const bad = kept(1);
    backend.refuse.add(bad.id);
    keeper.keep(good);
    keeper.keep(bad);
    await keeper.flush();
    expect(backend.rows.has(good.id)).toBe(true);
    expect(errors).toEqual([[1, 0]]);
    // Still answered from memory meanwhile, and written once the database takes it.
    expect((await keeper.findOne(1, bad.id, false))?.state).toBe(STATE.stored);
    backend.refuse.clear();
    await keeper.flush();
    expect(backend.rows.has(bad.id)).toBe(true);
  });

  it('gives a response up after five failed writes, and says so', async () => {
    const backend = new MemoryBackend();
    const errors: Array<[number, number]> = [];
    const keeper = keeperOver(backend, {}, { onError: (_err: unknown, failed: number, givenUp: number) => errors.push([failed, givenUp]) });
    backend.down = true;
    const a = kept(1);
    keeper.keep(a);
    for (let i = 0; i < 5; i++) await keeper.flush();
    expect(errors).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(keeper.waiting).toBe(0);
    backend.down = false;
    expect(await keeper.findOne(1, a.id, false)).toBeUndefined();
  });

  it('sums a user’s total (to evict beyond ResponsesMaxUserMB) after a sixteenth of the limit was written for them', async () => {
    const backend = new MemoryBackend();
    const a = kept(1, 'x'.repeat(300));
    const size = Buffer.byteLength(JSON.stringify(a.response)) + Buffer.byteLength(JSON.stringify([{ role: 'user', content: 'Say hello' }]));
    // A limit of about 40 such responses: checked after every third one of a user.
    const keeper = keeperOver(backend, { maxUserBytes: size * 40 });
    keeper.keep(a);
    keeper.keep(kept(2, 'x'.repeat(300)));
    keeper.keep(kept(1, 'x'.repeat(300)));
    await keeper.flush();
    expect(backend.evictions).toEqual([]);
    keeper.keep(kept(1, 'x'.repeat(300)));
    await keeper.flush();
    expect(backend.evictions).toEqual([[1, { cutoff: expect.any(Number), userBytes: size * 40 }]]);
    keeper.keep(kept(1, 'x'.repeat(300)));
    await keeper.flush();
    expect(backend.evictions).toHaveLength(1);
  });

  it('answers 503 when the store cannot be read, never "not found"', async () => {
    const backend = new MemoryBackend();
    const seen: unknown[] = [];
    const keeper = keeperOver(backend, {}, { onReadError: (err: unknown) => seen.push(err) });
    backend.down = true;
    await expect(keeper.findOne(1, responseId(newIdBase()), false)).rejects.toMatchObject({ status: 503, code: 'responses_store_unavailable' });
    await expect(keeper.remove(1, responseId(newIdBase()))).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(2);
  });

  it('writes what waits when it closes (shutdown)', async () => {
    const backend = new MemoryBackend();
    const keeper = keeperOver(backend);
    const a = kept(1);
    keeper.keep(a);
    await keeper.close();
    expect(backend.rows.has(a.id)).toBe(true);
    expect(backend.closed).toBe(true);
  });
});
