import http from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../test/databases.js';
import { useMjFixture, type MjFixture } from './fixture.js';

/*
 * What of a Midjourney request reaches the proxy's path: only a known mode word and the route's own path, with the
 * task's id as one encoded segment. A `{mode}` carrying `%2F`, `?`, `#` or dots would otherwise have been decoded
 * into the path sent with the channel's mj-api-secret — another user's task, or the proxy's account list. The
 * stand-in records every path it is called on.
 */

describe.each(testDatabases())('Midjourney upstream paths on $name', (database) => {
  const fixture = useMjFixture(database);
  let m: MjFixture;
  beforeEach(() => {
    m = fixture();
    m.stand.script = () => ({ code: 1 });
    m.stand.imageType = 'image/png';
  });

  const imagine = async (key: string, prompt = 'cat') => {
    const res = await m.call(key, 'POST', '/mj/submit/imagine', { prompt });
    expect(res.json().code).toBe(1);
    return res.json().result as string;
  };
  /**
   * A call on a real socket, its path sent exactly as written: the injected requests of other tests go through a URL
   * parser that would resolve a dot segment before the gateway ever saw it.
   */
  const raw = (key: string, method: string, path: string, body?: unknown) =>
    new Promise<{ statusCode: number; json: Record<string, unknown> }>((resolve, reject) => {
      const { port } = new URL(m.f.baseUrl);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) };
      const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  /** The calls the proxy receives while `run` runs. */
  const callsDuring = async (run: () => Promise<unknown>) => {
    const before = m.stand.calls.length;
    await run();
    return m.stand.calls.slice(before);
  };

  it('refuses a {mode} that hides another path, so another user’s task never reaches the caller', async () => {
    const a = await m.account();
    const b = await m.account();
    const mine = await imagine(a.key, 'mine');
    const theirs = await imagine(b.key, 'their secret prompt');
    let res!: Awaited<ReturnType<MjFixture['call']>>;
    const calls = await callsDuring(async () => {
      res = await m.call(a.key, 'GET', `/mj%2Ftask%2F${theirs}%2Ffetch%3F/mj/task/${mine}/image-seed`);
    });
    expect(calls).toEqual([]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 4, description: '不支持的绘图模式，只支持 fast、relax、turbo、mj-fast、mj-relax、mj-turbo', type: 'new_api_error' });
    expect(res.body).not.toContain('their secret prompt');
  });

  it('refuses every mode that is not a mode word, on every route, before anything is sent', async () => {
    const a = await m.account();
    const mine = await imagine(a.key);
    const modes = ['mj%2Faccount%2Flist%23', 'mj%2Ftask%2Flist-by-condition%3F', '..', '%2e%2e', '.', 'x', 'FAST', 'mj-fast%2F..', 'fast%3Fx', 'fast%23'];
    const calls = await callsDuring(async () => {
      for (const mode of modes) {
        for (const [method, path, body] of [
          ['GET', `/task/${mine}/image-seed`],
          ['GET', `/task/${mine}/fetch`],
          ['POST', '/task/list-by-condition', { ids: [mine] }],
          ['POST', '/submit/imagine', { prompt: 'cat' }],
          ['POST', '/notify', { id: mine }],
          ['GET', '/no/such/route'],
        ] as const) {
          const res = await raw(a.key, method, `/${mode}/mj${path}`, body);
          expect(res.statusCode, `${method} /${mode}/mj${path}`).toBe(400);
          expect(res.json, `${method} /${mode}/mj${path}`).toMatchObject({ code: 4, type: 'new_api_error' });
        }
      }
    });
    expect(calls).toEqual([]);
    // Nothing was charged for the refused submissions.
    expect((await m.db.selectFrom('midjourneys').select('id').where('user_id', '=', a.userId).execute()).length).toBe(1);
  });

  it('sends a mode word on as the established gateway does, with the route’s own path and no query', async () => {
    const a = await m.account(10_000_000, 5_000_000);
    const calls = await callsDuring(async () => {
      await imagine(a.key);
      for (const [mode, expected] of [
        ['fast', '/fast/mj/submit/imagine'],
        ['relax', '/relax/mj/submit/imagine'],
        ['turbo', '/turbo/mj/submit/imagine'],
        ['mj-fast', '/mj/submit/imagine'],
        ['mj-relax', '/mj/submit/imagine'],
        ['mj-turbo', '/mj/submit/imagine'],
      ]) {
        const res = await m.call(a.key, 'POST', `/${mode}/mj/submit/imagine?key=${a.key}`, { prompt: mode });
        expect(res.json().code, mode).toBe(1);
        expect(m.stand.calls.at(-1)).toBe(`POST ${expected}`);
      }
      // An escape in the route's path is not passed on either: the route decides the path.
      await m.call(a.key, 'POST', '/mj/submit/imagin%65', { prompt: 'escaped' });
      expect(m.stand.calls.at(-1)).toBe('POST /mj/submit/imagine');
      await m.call(a.key, 'POST', '/mj/insight-face/swap', { sourceBase64: 'a', targetBase64: 'b' });
      expect(m.stand.calls.at(-1)).toBe('POST /mj/insight-face/swap');
    });
    expect(calls.every((c) => !c.includes('?'))).toBe(true);
  });

  it('asks for an image seed at the task’s own id, one encoded segment, and never at a dot segment', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    const setId = (mjId: string) => m.db.updateTable('midjourneys').set({ mj_id: mjId }).where('user_id', '=', a.userId).execute();
    let calls = await callsDuring(() => m.call(a.key, 'GET', `/turbo/mj/task/${id}/image-seed`));
    expect(calls).toEqual([`GET /turbo/mj/task/${id}/image-seed`]);

    // An id an upstream made up with a path in it stays one segment (as do ?, # and an escape).
    const odd = `${id}/../../account/list?x=1#y%2e`;
    await setId(odd);
    calls = await callsDuring(() => m.call(a.key, 'GET', `/mj/task/${encodeURIComponent(odd)}/image-seed`));
    expect(calls).toEqual([`GET /mj/task/${encodeURIComponent(odd)}/image-seed`]);

    for (const [dots, at] of [['..', '..'], ['..', '%2e%2e'], ['.', '.'], ['.', '%2E']]) {
      await setId(dots);
      let res!: Awaited<ReturnType<typeof raw>>;
      calls = await callsDuring(async () => {
        res = await raw(a.key, 'GET', `/mj/task/${at}/image-seed`);
      });
      expect(calls, at).toEqual([]);
      expect(res.statusCode, at).toBe(400);
      expect(res.json, at).toMatchObject({ code: 4, type: 'new_api_error' });
    }
  });
});
