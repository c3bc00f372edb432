import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MidjourneyDto, TaskDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { insertMidjourney, insertTask } from '../store/async-tasks.js';

interface Body<T> {
  success: boolean;
  message: string;
  /** One page, as the established console reads it: a plain list. */
  data: T[];
}

const DAY = 86_400;
const NOW = 1_780_000_000;

describe.each(testDatabases())('drawing and task logs on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let alice: Session;
  let bob: Session;

  async function get<T>(session: Session, url: string): Promise<Body<T>> {
    const res = await t.call(session, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Body<T>;
  }
  const ids = (body: Body<{ id: number }>) => body.data.map((r) => r.id);
  const mjIds = (body: Body<MidjourneyDto>) => body.data.map((r) => r.mj_id);
  const taskIds = (body: Body<TaskDto>) => body.data.map((r) => r.task_id);

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    alice = await t.user('alice');
    bob = await t.user('bob');
    const db = t.app.ctx.db.kysely;
    await db.deleteFrom('midjourneys').execute();
    await db.deleteFrom('tasks').execute();
    // Drawing times are the proxy's milliseconds; inserted oldest first, so ids grow with time.
    const drawings: Array<[mj: string, user: number, channel: number, submitSeconds: number]> = [
      ['mj-a-old', alice.userId, 7, NOW - 40 * DAY],
      ['mj-a-1', alice.userId, 7, NOW - 2 * DAY],
      ['mj-b-1', bob.userId, 8, NOW - DAY],
      ['mj-a-2', alice.userId, 8, NOW - 60],
      ['mj-a-3', alice.userId, 7, NOW],
    ];
    for (const [mj_id, user_id, channel_id, at] of drawings) {
      await insertMidjourney(db, {
        mj_id, user_id, channel_id, submit_time: at * 1000, action: 'IMAGINE', status: 'SUCCESS', progress: '100%', code: 1,
        prompt: `prompt of ${mj_id}`, image_url: `https://img.example/${mj_id}.png`, quota: 50_000,
      });
    }
    const tasks: Array<[task: string, user: number, channel: number, submitSeconds: number]> = [
      ['t-a-old', alice.userId, 36, NOW - 3 * DAY],
      ['t-b-1', bob.userId, 37, NOW - DAY],
      ['t-a-1', alice.userId, 37, NOW - 100],
      ['t-a-2', alice.userId, 36, NOW],
    ];
    for (const [task_id, user_id, channel_id, at] of tasks) {
      await insertTask(db, {
        task_id, user_id, channel_id, submit_time: at, created_at: at, updated_at: at, platform: 'suno', action: 'MUSIC',
        status: 'IN_PROGRESS', progress: '40%', data: '{"clips":[]}', properties: '{"input":"song"}',
      });
    }
  });
  afterAll(() => t.close());

  it('lists every drawing for administrators, newest first, as a plain list with the spec fields', async () => {
    const body = await get<MidjourneyDto>(root, '/api/mj/?p=0');
    expect(body).toMatchObject({ success: true, message: '' });
    expect(Array.isArray(body.data)).toBe(true);
    expect(mjIds(body)).toEqual(['mj-a-3', 'mj-a-2', 'mj-b-1', 'mj-a-1', 'mj-a-old']);
    expect(ids(body)).toEqual([...ids(body)].sort((a, b) => b - a));
    expect(body.data[0]).toMatchObject({
      mj_id: 'mj-a-3', user_id: alice.userId, channel_id: 7, action: 'IMAGINE', code: 1, status: 'SUCCESS', progress: '100%',
      prompt: 'prompt of mj-a-3', image_url: '/mj/image/mj-a-3', submit_time: NOW * 1000, created_at: NOW,
      quota: 50_000, fail_reason: '', prompt_en: '', finish_time: 0,
    });
  });

  it('answers other methods on its paths as the console does, not as the Midjourney relay under /{mode}/mj', async () => {
    for (const [method, url] of [['POST', '/api/mj/'], ['PUT', '/api/mj/self'], ['DELETE', '/api/mj/self/'], ['OPTIONS', '/api/mj/self']] as const) {
      const res = await t.call(root, { method, url, headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' }, payload: 'not gzip' });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toMatchObject({ success: false });
    }
  });

  it("shows a drawing's image through the gateway's address while MjForwardUrlEnabled, else the proxy's own", async () => {
    const options = t.app.ctx.options;
    expect(await options.set('ServerAddress', 'https://gw.example.com/')).toBeNull();
    const first = async () => (await get<MidjourneyDto>(root, '/api/mj/?mj_id=mj-a-3')).data[0].image_url;
    expect(await first()).toBe('https://gw.example.com/mj/image/mj-a-3');
    expect(await options.set('MjForwardUrlEnabled', 'false')).toBeNull();
    expect(await first()).toBe('https://img.example/mj-a-3.png');
    await options.set('MjForwardUrlEnabled', 'true');
    await options.set('ServerAddress', '');
  });

  it('filters drawings by channel, mj id and a submit window given in milliseconds or seconds', async () => {
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?channel_id=7'))).toEqual(['mj-a-3', 'mj-a-1', 'mj-a-old']);
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?mj_id=mj-b-1'))).toEqual(['mj-b-1']);
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?mj_id=mj-b'))).toEqual([]);
    // The console's default drawing window: the last 30 days up to an hour ahead, in milliseconds.
    const window = `start_timestamp=${(NOW - 30 * DAY) * 1000}&end_timestamp=${(NOW + 3600) * 1000}`;
    expect(mjIds(await get<MidjourneyDto>(root, `/api/mj/?${window}`))).toEqual(['mj-a-3', 'mj-a-2', 'mj-b-1', 'mj-a-1']);
    // The same bounds in seconds; an end in seconds takes in the whole of its last second.
    expect(mjIds(await get<MidjourneyDto>(root, `/api/mj/?start_timestamp=${NOW - DAY}&end_timestamp=${NOW - 60}`))).toEqual([
      'mj-a-2',
      'mj-b-1',
    ]);
    expect(mjIds(await get<MidjourneyDto>(root, `/api/mj/?channel_id=8&start_timestamp=${NOW - 3600}`))).toEqual(['mj-a-2']);
  });

  it('pages drawings by p from 0 and page_size (10 rows unless asked), as the established console does', async () => {
    const db = t.app.ctx.db.kysely;
    const first = await db.selectFrom('midjourneys').select((e) => e.fn.max('id').as('id')).executeTakeFirstOrThrow();
    for (let i = 0; i < 7; i += 1) await insertMidjourney(db, { mj_id: `mj-page-${i}`, user_id: bob.userId, channel_id: 9, submit_time: NOW * 1000 });
    try {
      // 12 drawings: the console asks p=0, then p=1 when the user reaches page 2; a short page is the last.
      expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=0'))).toHaveLength(10);
      expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=1'))).toEqual(['mj-a-1', 'mj-a-old']);
      expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/'))).toEqual(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=0')));
    } finally {
      await db.deleteFrom('midjourneys').where('id', '>', Number(first.id)).execute();
    }
    const second = await get<MidjourneyDto>(root, '/api/mj/?p=1&page_size=2');
    expect(mjIds(second)).toEqual(['mj-b-1', 'mj-a-1']);
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=2&page_size=2'))).toEqual(['mj-a-old']);
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=3&page_size=2'))).toEqual([]);
    // Unreadable or out-of-range paging falls back to the first page and the nearest size.
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=abc&page_size=100000'))).toHaveLength(5);
    expect(mjIds(await get<MidjourneyDto>(root, '/api/mj/?p=-1&page_size=1'))).toEqual(['mj-a-3']);
  });

  it("shows a user only their own drawings, without channels, whatever the filters say", async () => {
    const own = await get<MidjourneyDto>(alice, '/api/mj/self/');
    expect(mjIds(own)).toEqual(['mj-a-3', 'mj-a-2', 'mj-a-1', 'mj-a-old']);
    expect(own.data.every((r) => r.user_id === alice.userId && r.channel_id === 0)).toBe(true);
    expect(mjIds(await get<MidjourneyDto>(alice, '/api/mj/self/?mj_id=mj-b-1'))).toEqual([]);
    // channel_id is an administrator's filter: ignored here, and never a way to another user's rows.
    expect(mjIds(await get<MidjourneyDto>(bob, '/api/mj/self?channel_id=7'))).toEqual(['mj-b-1']);
    const windowed = await get<MidjourneyDto>(alice, `/api/mj/self/?start_timestamp=${(NOW - 3 * DAY) * 1000}&page_size=2&p=1`);
    expect(mjIds(windowed)).toEqual(['mj-a-1']);
  });

  it('lists every async task for administrators with channel, task id and window filters (seconds or milliseconds)', async () => {
    const all = await get<TaskDto>(root, '/api/task/?p=0');
    expect(taskIds(all)).toEqual(['t-a-2', 't-a-1', 't-b-1', 't-a-old']);
    expect(all.data[0]).toMatchObject({
      task_id: 't-a-2', platform: 'suno', action: 'MUSIC', status: 'IN_PROGRESS', progress: '40%', user_id: alice.userId,
      channel_id: 36, submit_time: NOW, created_at: NOW, fail_reason: '', finish_time: 0, data: '{"clips":[]}',
    });
    expect(taskIds(await get<TaskDto>(root, '/api/task?channel_id=37'))).toEqual(['t-a-1', 't-b-1']);
    expect(taskIds(await get<TaskDto>(root, '/api/task/?task_id=t-b-1'))).toEqual(['t-b-1']);
    // The console's default task window starts at the start of today (here: the day of NOW).
    const today = NOW - (NOW % DAY);
    expect(taskIds(await get<TaskDto>(root, `/api/task/?start_timestamp=${today}`))).toEqual(['t-a-2', 't-a-1']);
    expect(taskIds(await get<TaskDto>(root, `/api/task/?end_timestamp=${(NOW - DAY) * 1000}`))).toEqual(['t-b-1', 't-a-old']);
    // p from 0: the second page of three.
    expect(taskIds(await get<TaskDto>(root, '/api/task/?p=1&page_size=3'))).toEqual(['t-a-old']);
    expect(taskIds(await get<TaskDto>(root, '/api/task/?page_size=3'))).toEqual(['t-a-2', 't-a-1', 't-b-1']);
  });

  it('shows a user only their own async tasks, without channels', async () => {
    const own = await get<TaskDto>(bob, '/api/task/self');
    expect(taskIds(own)).toEqual(['t-b-1']);
    expect(own.data[0]).toMatchObject({ user_id: bob.userId, channel_id: 0 });
    expect(taskIds(await get<TaskDto>(bob, '/api/task/self/?task_id=t-a-1'))).toEqual([]);
    expect(taskIds(await get<TaskDto>(alice, '/api/task/self?channel_id=37&page_size=1'))).toEqual(['t-a-2']);
    expect(taskIds(await get<TaskDto>(alice, '/api/task/self?channel_id=37&page_size=1&p=2'))).toEqual(['t-a-old']);
  });

  it('keeps the all-user lists to administrators', async () => {
    for (const url of ['/api/mj/', '/api/task/']) {
      const res = await t.call(alice, { method: 'GET', url });
      expect(res.json(), url).toMatchObject({ success: false });
      expect(res.body, url).not.toContain('mj-b-1');
      expect(res.body, url).not.toContain('t-b-1');
    }
  });
});
