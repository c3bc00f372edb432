import dayjs from 'dayjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Insertable } from 'kysely';
import { connect } from '../../server/src/db/connect.js';
import type { MidjourneysTable, TasksTable } from '../../server/src/db/schema.js';
import { insertMidjourney, insertTask } from '../../server/src/store/async-tasks.js';
import { apiAs, registerUser, useServerAndBrowser } from '../support/fixture.js';
import { signedIn as signedInAs } from '../support/settings.js';

type Drawing = Partial<Insertable<MidjourneysTable>>;
type Task = Partial<Insertable<TasksTable>>;

/**
 * Puts drawing and async task rows straight into the database: every action, status and age the pages must show,
 * more than the stand-ins would make in a test's time. Tasks made through the relays and ended by the pollers are
 * in task-relay.e2e.ts.
 */
async function seedTasks(databasePath: string, drawings: Drawing[], tasks: Task[]): Promise<void> {
  const db = await connect('', databasePath);
  try {
    for (const row of drawings) await insertMidjourney(db.kysely, row);
    for (const row of tasks) await insertTask(db.kysely, row);
  } finally {
    await db.close();
  }
}

const LONG_PROMPT = `a lighthouse at dusk <b>bold</b> ${'with waves crashing on the rocks, '.repeat(6)}the end`;
const FAIL_REASON = 'banned prompt detected by the upstream moderation: <script>alert(1)</script> please rephrase';
const TASK_DATA = { clips: [{ id: 'clip-1', title: '<i>night song</i>' }] };
/** The detail dialog shows a task's data indented. */
const TASK_DATA_JSON = JSON.stringify(TASK_DATA, null, 2);
const BULK = 12;
const DRAWING_BULK_ACTIONS = ['VARIATION', 'REROLL', 'DESCRIBE', 'ZOOM', 'PAN', 'SHORTEN'];
const DRAWING_BULK_STATUSES = ['MODAL', 'NOT_START', 'SUBMITTED'];
/** Ids of the rows that fill the pages: two digits, so none is a prefix of another. */
const bulkId = (prefix: string, i: number) => `${prefix}-bulk-${String(i).padStart(2, '0')}`;

describe('the drawing and async task pages', () => {
  // The seeded rows name channels that do not exist: a poller would fail them (as it must) while the pages are read.
  const env = useServerAndBrowser({ UPDATE_TASK: 'false' });
  const signedIn = async (username: string, password: string) => {
    const session = await signedInAs(env.browser(), env.server().baseUrl, username, password);
    if (username === 'root') await session.page.getByRole('button', { name: '我知道了' }).click();
    return session;
  };

  beforeAll(async () => {
    const base = env.server().baseUrl;
    await registerUser(base, 'painter', 'password123');
    const root = await apiAs(base, 'root', '123456');
    const found = ((await root('GET', '/api/user/search?keyword=painter')).data as { items: Array<{ id: number }> }).items;
    const painter = found[0].id;
    const now = Date.now();
    // Drawings carry the proxy's millisecond times; the default window is the last 30 days.
    // Lists come newest first by id: the bulk rows go in first, so the ones a test looks at lead the first page.
    const drawings: Drawing[] = [
      ...Array.from({ length: BULK }, (_, i): Drawing => ({
        user_id: 1, channel_id: 7, mj_id: bulkId('mj', i), code: 1, submit_time: now - 3_600_000 - i * 1000,
        action: DRAWING_BULK_ACTIONS[i % DRAWING_BULK_ACTIONS.length], status: DRAWING_BULK_STATUSES[i % DRAWING_BULK_STATUSES.length],
      })),
      {
        user_id: painter, channel_id: 3, action: 'IMAGINE', mj_id: 'mj-painter-1', code: 1, status: 'SUCCESS', progress: '100%',
        submit_time: now - 120_000, finish_time: now - 30_000, image_url: `${base}/logo.svg`, prompt: LONG_PROMPT, prompt_en: 'a lighthouse',
      },
      { user_id: painter, channel_id: 5, action: 'UPSCALE', mj_id: 'mj-painter-2', code: 21, status: 'IN_PROGRESS', progress: '45%', submit_time: now - 60_000 },
      {
        user_id: 1, channel_id: 3, action: 'BLEND', mj_id: 'mj-root-1', code: 22, status: 'FAILURE', progress: '100%',
        submit_time: now - 30_000, finish_time: now - 20_000, fail_reason: FAIL_REASON,
      },
      { user_id: painter, channel_id: 3, action: 'IMAGINE', mj_id: 'mj-old', code: 1, status: 'SUCCESS', submit_time: now - 40 * 86_400_000 },
    ];
    // Tasks carry unix seconds; the default window starts today.
    const today = dayjs().startOf('day').unix();
    const tasks: Task[] = [
      ...Array.from({ length: BULK }, (_, i): Task => ({
        user_id: 1, channel_id: 7, platform: 'suno', action: 'LYRICS', task_id: bulkId('suno', i), status: i % 2 ? 'QUEUED' : 'UNKNOWN', submit_time: today + 40 + i,
      })),
      {
        user_id: painter, channel_id: 3, platform: 'suno', action: 'MUSIC', task_id: 'suno-painter-1', status: 'SUCCESS', progress: '100%',
        submit_time: today + 10, finish_time: today + 110, data: JSON.stringify(TASK_DATA),
      },
      { user_id: painter, channel_id: 5, platform: 'suno', action: 'LYRICS', task_id: 'suno-painter-2', status: '', progress: '', submit_time: today + 20 },
      {
        user_id: 1, channel_id: 3, platform: 'suno', action: 'MUSIC', task_id: 'suno-root-1', status: 'FAILURE', progress: '100%',
        submit_time: today + 30, finish_time: today + 60, fail_reason: FAIL_REASON,
      },
      { user_id: painter, channel_id: 3, platform: 'suno', action: 'MUSIC', task_id: 'suno-yesterday', status: 'SUCCESS', submit_time: today - 3600 },
    ];
    await seedTasks(env.server().databasePath, drawings, tasks);
  });

  const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
  /** The table's data rows (not the empty-table placeholder row). */
  const bodyRows = (page: Page) => page.locator('tbody tr[data-row-key]');
  const row = (page: Page, id: string) => page.getByRole('row').filter({ hasText: id });
  const search = (page: Page) => page.getByRole('button', { name: '查询' }).click();
  const secondPageLink = (page: Page) => page.locator('.ant-pagination').getByTitle('2', { exact: true });
  const nextPage = (page: Page) => secondPageLink(page).click();
  /** The colour a tag is drawn in. */
  const colorOf = (tag: Locator) => tag.evaluate((el) => getComputedStyle(el).color);
  const rowsShown = (page: Page, n: number) => poll(() => bodyRows(page).count()).toBe(n);
  /**
   * The list holds `n` rows. The lists carry no total (the established console's shape): page 1 shows up to 10, and
   * a full page offers the next one, which is fetched when the user reaches it.
   */
  async function listed(page: Page, n: number): Promise<void> {
    await rowsShown(page, Math.min(n, 10));
    await poll(() => secondPageLink(page).count()).toBe(n >= 10 ? 1 : 0);
  }
  /** Fills filter fields by label (times as 'YYYY-MM-DD HH:mm:ss') and runs the query. */
  async function filter(page: Page, fields: Record<string, string>): Promise<void> {
    for (const [label, value] of Object.entries(fields)) {
      const field = page.getByLabel(label);
      await field.click();
      await field.fill(value);
      if (label.endsWith('时间')) await field.press('Enter');
    }
    await search(page);
  }
  /** Filters, then expects exactly these rows. */
  async function filterTo(page: Page, fields: Record<string, string>, ...ids: string[]): Promise<void> {
    await filter(page, fields);
    await rowsShown(page, ids.length);
    for (const id of ids) await row(page, id).waitFor();
  }
  const at = (time: dayjs.Dayjs) => time.format('YYYY-MM-DD HH:mm:ss');
  /** An admin's page on a list whose default window holds every row but the old one. */
  async function adminOn(path: string): Promise<{ page: Page; close(): Promise<void> }> {
    const session = await signedIn('root', '123456');
    await session.page.goto(path);
    await listed(session.page, 3 + BULK);
    return session;
  }
  /** Page 2 holds the rest of the rows: the oldest bulk one, not the newest row of page 1. */
  async function secondPage(page: Page, oldest: string, newest: string): Promise<void> {
    await nextPage(page);
    await rowsShown(page, 3 + BULK - 10);
    await row(page, oldest).waitFor();
    expect(await row(page, newest).count()).toBe(0);
  }
  /**
   * Clicks what opens a text dialog, finds `text` in it whole, checks that none of `tags` was rendered as an element
   * (markup in stored text is shown, never rendered), and closes it.
   */
  async function readDialog(page: Page, opener: Locator, text: string, tags: string[] = []): Promise<void> {
    await opener.click();
    const whole = page.getByText(text, { exact: true });
    const dialog = page.getByRole('dialog').filter({ has: whole });
    await dialog.waitFor();
    for (const tag of tags) expect(await dialog.locator(tag).count()).toBe(0);
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('shows an admin every drawing with its channel, tags and durations, a page at a time', async () => {
    const { page, close } = await signedIn('root', '123456');
    await page.getByRole('menuitem', { name: '绘图' }).click();
    await page.waitForURL(/\/midjourney$/);
    await page.getByText('当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。').waitFor();
    for (const header of ['提交时间', '花费时间', '渠道', '类型', '任务ID', '提交结果', '任务状态', '进度', '结果图片', 'Prompt', 'PromptEn', '失败原因']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    // Three drawings of the last minutes and the bulk ones an hour ago; the 40-day-old one is outside the window.
    await listed(page, 3 + BULK);
    await rowsShown(page, 10);
    expect(await row(page, 'mj-old').count()).toBe(0);

    const done = row(page, 'mj-painter-1');
    for (const text of ['绘图', '已提交', '成功', '100%']) await done.getByText(text, { exact: true }).waitFor();
    await done.getByText('3', { exact: true }).waitFor();
    const slow = done.getByText('90.0 秒');
    await slow.waitFor();

    const failed = row(page, 'mj-root-1');
    for (const text of ['图混合', '重复提交', '失败']) await failed.getByText(text, { exact: true }).waitFor();
    const quick = failed.getByText('10.0 秒');
    await quick.waitFor();
    // Spec §9: over 60 s is red, otherwise green.
    expect(await colorOf(slow)).not.toBe(await colorOf(quick));
    expect(await colorOf(slow)).toBe(await colorOf(failed.getByText('失败', { exact: true })));
    expect(await colorOf(quick)).toBe(await colorOf(done.getByText('成功', { exact: true })));

    const running = row(page, 'mj-painter-2');
    for (const text of ['放大', '等待中', '执行中', '45%', '-', '5']) await running.getByText(text, { exact: true }).waitFor();
    expect(await running.getByRole('button', { name: '查看图片' }).count()).toBe(0);
    await row(page, bulkId('mj', 9)).getByText('窗口等待', { exact: true }).waitFor();
    await row(page, bulkId('mj', 10)).getByText('未启动', { exact: true }).waitFor();
    await row(page, bulkId('mj', 11)).getByText('队列中', { exact: true }).waitFor();
    await row(page, bulkId('mj', 7)).getByText('重绘', { exact: true }).waitFor();
    await row(page, bulkId('mj', 8)).getByText('图生文', { exact: true }).waitFor();

    await secondPage(page, bulkId('mj', 0), 'mj-root-1');
    await close();
  });

  it('filters drawings by task id, channel and time window', async () => {
    const { page, close } = await adminOn('/midjourney');

    await filterTo(page, { '任务 ID': 'mj-painter-2' }, 'mj-painter-2');

    await filter(page, { '任务 ID': '', '渠道 ID': '7' });
    await poll(() => row(page, 'mj-painter').count()).toBe(0);
    await listed(page, BULK);
    await nextPage(page);
    await rowsShown(page, BULK - 10);
    await row(page, bulkId('mj', 0)).waitFor();

    // The old drawing shows once the window starts before it.
    await filter(page, { '渠道 ID': '', '任务 ID': 'mj-old' });
    await rowsShown(page, 0);
    await filterTo(page, { 起始时间: at(dayjs().subtract(60, 'day')) }, 'mj-old');
    await close();
  });

  it('opens a long prompt and a fail reason as plain text, and the image in a viewer that zooms', async () => {
    const { page, close } = await adminOn('/midjourney');
    const done = row(page, 'mj-painter-1');
    await readDialog(page, done.getByText('a lighthouse at dusk', { exact: false }), LONG_PROMPT, ['b']);
    await readDialog(page, row(page, 'mj-root-1').getByText('banned prompt', { exact: false }), FAIL_REASON, ['script']);

    await done.getByRole('button', { name: '查看图片' }).click();
    const viewer = page.getByRole('dialog').filter({ hasText: '查看图片' });
    const image = viewer.getByRole('img', { name: '结果图片' });
    await image.waitFor();
    await poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    // Shown through the gateway (MjForwardUrlEnabled, the default), which streams the stored image.
    expect(await image.getAttribute('src')).toBe('/mj/image/mj-painter-1');
    const level = viewer.getByLabel('缩放比例');
    // The image's layout width against its frame's (the dialog's opening animation scales both alike).
    const scale = () => image.evaluate((el: HTMLImageElement) => el.offsetWidth / el.parentElement!.clientWidth);
    await expect.poll(() => level.textContent()).toBe('100%');
    await poll(scale).toBeCloseTo(1, 2);
    await viewer.getByRole('button', { name: '放大图片' }).click();
    await expect.poll(() => level.textContent()).toBe('125%');
    await poll(scale).toBeCloseTo(1.25, 2);
    await viewer.getByRole('button', { name: '缩小图片' }).click();
    await viewer.getByRole('button', { name: '缩小图片' }).click();
    await expect.poll(() => level.textContent()).toBe('80%');
    await poll(scale).toBeCloseTo(0.8, 2);
    await viewer.getByRole('button', { name: '重置' }).click();
    await expect.poll(() => level.textContent()).toBe('100%');
    // The wheel: away from the user zooms in, towards the user zooms out.
    await image.hover();
    await page.mouse.wheel(0, -100);
    await poll(() => level.textContent()).toBe('125%');
    await page.mouse.wheel(0, 100);
    await page.mouse.wheel(0, 100);
    await poll(() => level.textContent()).toBe('80%');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    await close();
  });

  it('shows a user only their own drawings, without the channel column or filter', async () => {
    const { page, close } = await signedIn('painter', 'password123');
    await page.getByRole('menuitem', { name: '绘图' }).click();
    await page.waitForURL(/\/midjourney$/);
    await listed(page, 2);
    await row(page, 'mj-painter-1').getByText('成功', { exact: true }).waitFor();
    await row(page, 'mj-painter-2').getByText('执行中', { exact: true }).waitFor();
    expect(await row(page, 'mj-root-1').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: '渠道', exact: true }).count()).toBe(0);
    expect(await page.getByLabel('渠道 ID').count()).toBe(0);
    expect(await page.getByText('当前未开启Midjourney回调', { exact: false }).count()).toBe(0);
    await page.getByRole('columnheader', { name: '任务状态', exact: true }).waitFor();
    // An id of someone else's drawing finds nothing.
    await filter(page, { '任务 ID': 'mj-root-1' });
    await rowsShown(page, 0);
    await close();
  });

  it("shows an admin today's async tasks with platform, action and status tags, a page at a time", async () => {
    const { page, close } = await signedIn('root', '123456');
    await page.getByRole('menuitem', { name: '异步任务' }).click();
    await page.waitForURL(/\/task$/);
    for (const header of ['提交时间', '结束时间', '花费时间', '渠道', '平台', '类型', '任务ID（点击查看详情）', '任务状态', '进度', '失败原因']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    // Yesterday's task is before the default window (the start of today).
    await listed(page, 3 + BULK);
    await rowsShown(page, 10);
    expect(await row(page, 'suno-yesterday').count()).toBe(0);
    await row(page, bulkId('suno', 10)).getByText('未知', { exact: true }).waitFor();
    await row(page, bulkId('suno', 11)).getByText('排队中', { exact: true }).waitFor();
    await row(page, bulkId('suno', 11)).getByText('生成歌词', { exact: true }).waitFor();
    const music = row(page, 'suno-painter-1');
    for (const text of ['Suno', '生成音乐', '成功', '100%', '3']) await music.getByText(text, { exact: true }).waitFor();
    const slow = music.getByText('100.0 秒');
    const lyrics = row(page, 'suno-painter-2');
    for (const text of ['生成歌词', '正在提交', '0%', '5']) await lyrics.getByText(text, { exact: true }).waitFor();
    const failed = row(page, 'suno-root-1');
    await failed.getByText('失败', { exact: true }).waitFor();
    const quick = failed.getByText('30.0 秒');
    expect(await colorOf(slow)).toBe(await colorOf(failed.getByText('失败', { exact: true })));
    expect(await colorOf(quick)).toBe(await colorOf(music.getByText('成功', { exact: true })));

    // The detail dialog shows the task's data as indented JSON, as text.
    await readDialog(page, music.getByRole('button', { name: 'suno-painter-1' }), TASK_DATA_JSON, ['i']);
    await readDialog(page, failed.getByText('banned prompt', { exact: false }), FAIL_REASON, ['script']);

    await secondPage(page, bulkId('suno', 0), 'suno-painter-1');
    await close();
  });

  it('filters async tasks by task id, channel and time window', async () => {
    const { page, close } = await adminOn('/task');
    await filterTo(page, { '任务 ID': 'suno-root-1' }, 'suno-root-1');
    await filterTo(page, { '任务 ID': '', '渠道 ID': '5' }, 'suno-painter-2');

    // Yesterday's task shows once the window starts before it, and alone when the window also ends before today.
    await filter(page, { '渠道 ID': '3', 起始时间: at(dayjs().startOf('day').subtract(1, 'day')) });
    await listed(page, 3);
    await row(page, 'suno-yesterday').waitFor();
    await filterTo(page, { 结束时间: at(dayjs().startOf('day').subtract(1, 'second')) }, 'suno-yesterday');
    await close();
  });

  it('shows a user only their own async tasks, without the channel column or filter', async () => {
    const { page, close } = await signedIn('painter', 'password123');
    await page.goto('/task');
    await listed(page, 2);
    await row(page, 'suno-painter-1').waitFor();
    await row(page, 'suno-painter-2').waitFor();
    expect(await row(page, 'suno-root-1').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: '渠道', exact: true }).count()).toBe(0);
    expect(await page.getByLabel('渠道 ID').count()).toBe(0);
    await readDialog(page, row(page, 'suno-painter-1').getByRole('button', { name: 'suno-painter-1' }), TASK_DATA_JSON);
    await close();
  });

  it('hides the drawing and task items when their options are off', async () => {
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    const sidebar = async () => {
      const { page, close } = await signedIn('painter', 'password123');
      await page.getByRole('menuitem', { name: '日志' }).waitFor();
      const items = { drawing: await page.getByRole('menuitem', { name: '绘图' }).count(), task: await page.getByRole('menuitem', { name: '异步任务' }).count() };
      await close();
      return items;
    };
    expect(await sidebar()).toEqual({ drawing: 1, task: 1 });
    expect((await root('PUT', '/api/option/', { key: 'DrawingEnabled', value: 'false' })).success).toBe(true);
    expect(await sidebar()).toEqual({ drawing: 0, task: 1 });
    expect((await root('PUT', '/api/option/', { key: 'TaskEnabled', value: 'false' })).success).toBe(true);
    expect(await sidebar()).toEqual({ drawing: 0, task: 0 });
    expect((await root('PUT', '/api/option/', { key: 'DrawingEnabled', value: 'true' })).success).toBe(true);
    expect(await sidebar()).toEqual({ drawing: 1, task: 0 });
  });
});
