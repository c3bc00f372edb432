import { describe, expect, it } from 'vitest';
import { card, optionsOf, settingsSuite, someOptionsOf, toast } from '../support/settings.js';

describe('the operation settings tab', () => {
  const { root, asRoot, status } = settingsSuite();

  it('shows the ten cards in the order of the spec, the rate-limit card after monitoring', async () => {
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=operation');
    await card(page, '倍率设置').waitFor();
    const titles = await page.getByRole('tabpanel').locator('.ant-card-head-title').allInnerTexts();
    expect(titles).toEqual(['通用设置', '绘图设置', '屏蔽词过滤设置', '日志设置', '数据看板设置', '监控设置', '模型请求速率限制', '额度设置', '聊天设置', '倍率设置']);
    await close();
  });

  it('saves the general card, says when nothing changed, and keeps the values after a reload', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=operation');
    const general = card(page, '通用设置');
    const save = general.getByRole('button', { name: '保存通用设置' });
    await expect.poll(() => general.getByLabel('单位美元额度').inputValue(), { timeout: 10_000 }).toBe('500000');

    await save.click();
    await toast(page, '你似乎并没有修改什么');

    await general.getByLabel('充值链接').fill('not a link');
    await save.click();
    await toast(page, '请输入合法的链接');
    await general.getByLabel('充值链接').fill('https://shop.example.com/buy');
    await general.getByLabel('聊天页面链接').fill('https://chat.example.com');
    await general.getByLabel('失败重试次数').fill('2');
    await general.getByRole('switch', { name: '默认折叠侧边栏' }).click();
    await general.getByRole('switch', { name: '额度查询接口返回令牌额度而非用户额度' }).click();
    await save.click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).RetryTimes, { timeout: 10_000 }).toBe('2');
    expect(await optionsOf(api)).toMatchObject({
      TopUpLink: 'https://shop.example.com/buy',
      ChatLink: 'https://chat.example.com',
      DefaultCollapseSidebar: 'true',
      DisplayTokenStatEnabled: 'false',
      QuotaPerUnit: '500000',
    });
    expect(await status()).toMatchObject({ top_up_link: 'https://shop.example.com/buy', default_collapse_sidebar: true, chat_link: 'https://chat.example.com' });

    await page.reload();
    await expect.poll(() => general.getByLabel('失败重试次数').inputValue(), { timeout: 10_000 }).toBe('2');
    await expect.poll(() => general.getByLabel('充值链接').inputValue()).toBe('https://shop.example.com/buy');
    await expect.poll(() => general.getByRole('switch', { name: '默认折叠侧边栏' }).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => general.getByRole('switch', { name: '额度查询接口返回令牌额度而非用户额度' }).getAttribute('aria-checked')).toBe('false');
    // Saved values are unchanged values.
    await save.click();
    await toast(page, '你似乎并没有修改什么');
    await close();
  });

  it('saves the drawing switches and the sensitive words, one per line', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=operation');
    const drawing = card(page, '绘图设置');
    const drawingSwitch = drawing.getByRole('switch', { name: '启用绘图功能' });
    await expect.poll(() => drawingSwitch.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true');
    await drawingSwitch.click();
    await drawing.getByRole('switch', { name: '允许回调（会泄露服务器 IP 地址）' }).click();
    await drawing.getByRole('button', { name: '保存绘图设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(() => someOptionsOf(api, 'MjNotifyEnabled', 'DrawingEnabled'), { timeout: 10_000 }).toEqual({ MjNotifyEnabled: 'true', DrawingEnabled: 'false' });
    expect(await status()).toMatchObject({ enable_drawing: false, mj_notify_enabled: true });

    const words = card(page, '屏蔽词过滤设置');
    const list = words.getByLabel('屏蔽词列表');
    await expect.poll(() => list.inputValue(), { timeout: 10_000 }).toBe('test_sensitive');
    await list.fill('  赌博 \n\n诈骗\n赌博\n');
    await words.getByRole('switch', { name: '启用 Prompt 检查' }).click();
    await words.getByRole('button', { name: '保存屏蔽词过滤设置' }).click();
    await toast(page, '保存成功');
    // The drawing card's 保存成功 may still be on screen: wait for both options themselves.
    await expect.poll(() => someOptionsOf(api, 'SensitiveWords', 'CheckSensitiveOnPromptEnabled'), { timeout: 10_000 }).toEqual({ SensitiveWords: '赌博\n诈骗', CheckSensitiveOnPromptEnabled: 'false' });

    await page.reload();
    await expect.poll(() => drawingSwitch.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false');
    await expect.poll(() => list.inputValue(), { timeout: 10_000 }).toBe('赌博\n诈骗');
    await close();
  });

  it('saves the monitoring card; an empty field is refused before anything is sent', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=operation');
    const monitoring = card(page, '监控设置');
    const threshold = monitoring.getByLabel('最长响应时间');
    await expect.poll(() => threshold.inputValue(), { timeout: 10_000 }).toBe('5');
    await threshold.fill('');
    await monitoring.getByRole('button', { name: '保存监控设置' }).click();
    await toast(page, '请输入最长响应时间');

    await threshold.fill('8');
    await monitoring.getByLabel('额度提醒阈值').fill('0');
    await monitoring.getByRole('switch', { name: '失败时自动禁用通道' }).click();
    await monitoring.getByLabel('自动禁用关键词').fill('quota exceeded\ninvalid api key');
    await monitoring.getByRole('button', { name: '保存监控设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).AutomaticDisableKeywords, { timeout: 10_000 }).toBe('quota exceeded\ninvalid api key');
    expect(await optionsOf(api)).toMatchObject({ ChannelDisableThreshold: '8', QuotaRemindThreshold: '0', AutomaticDisableChannelEnabled: 'true' });

    await page.reload();
    await expect.poll(() => threshold.inputValue(), { timeout: 10_000 }).toBe('8');
    await expect.poll(() => monitoring.getByRole('switch', { name: '失败时自动禁用通道' }).getAttribute('aria-checked')).toBe('true');
    await close();
  });

  it('saves the model request rate limit card and keeps its values after a reload', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=operation');
    const limits = card(page, '模型请求速率限制');
    const period = limits.getByLabel('限制周期');
    await expect.poll(() => period.inputValue(), { timeout: 10_000 }).toBe('1');
    await expect.poll(() => limits.getByLabel('用户每周期最多请求次数').inputValue()).toBe('0');
    await expect.poll(() => limits.getByLabel('用户每周期最多请求完成次数').inputValue()).toBe('1000');

    await limits.getByRole('switch', { name: '启用用户模型请求速率限制（可能会影响高并发性能）' }).click();
    await period.fill('5');
    await limits.getByLabel('用户每周期最多请求次数').fill('300');
    await limits.getByLabel('用户每周期最多请求完成次数').fill('120');
    await limits.getByRole('button', { name: '保存模型速率限制' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).ModelRequestRateLimitSuccessCount, { timeout: 10_000 }).toBe('120');
    expect(await optionsOf(api)).toMatchObject({
      ModelRequestRateLimitEnabled: 'true',
      ModelRequestRateLimitDurationMinutes: '5',
      ModelRequestRateLimitCount: '300',
    });

    await page.reload();
    await expect.poll(() => period.inputValue(), { timeout: 10_000 }).toBe('5');
    await expect.poll(() => limits.getByLabel('用户每周期最多请求次数').inputValue()).toBe('300');
    await expect.poll(() => limits.getByLabel('用户每周期最多请求完成次数').inputValue()).toBe('120');
    await expect.poll(() => limits.getByRole('switch', { name: '启用用户模型请求速率限制（可能会影响高并发性能）' }).getAttribute('aria-checked')).toBe('true');
    await close();
  });

  it('refuses a chat list or a ratio that is not JSON, saves valid ones, and resets the model ratios after a confirmation', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=operation');

    const chats = card(page, '聊天设置');
    const chatText = chats.getByLabel('聊天配置');
    await expect.poll(() => chatText.inputValue(), { timeout: 10_000 }).toContain('OpenCat');
    await chatText.fill('[{"NextChat": "https://chat.example.com/?key={key}"');
    await chats.getByRole('button', { name: '保存聊天设置' }).click();
    await toast(page, '请检查输入');
    await chats.getByText('不是合法的 JSON 字符串').waitFor();
    await chatText.fill('[{"NextChat": "https://chat.example.com/?key={key}"}]');
    await chats.getByRole('button', { name: '保存聊天设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).Chats, { timeout: 10_000 }).toBe('[{"NextChat":"https://chat.example.com/?key={key}"}]');

    const ratios = card(page, '倍率设置');
    const group = ratios.getByLabel('分组倍率');
    await expect.poll(() => group.inputValue(), { timeout: 10_000 }).toContain('"vip": 1');
    await group.fill('{"default": 1, "vip": ');
    await ratios.getByRole('button', { name: '保存倍率设置' }).click();
    await toast(page, '请检查输入');
    await ratios.getByText('不是合法的 JSON 字符串').waitFor();
    await group.fill('{"default": 1, "vip": -2}');
    await ratios.getByRole('button', { name: '保存倍率设置' }).click();
    await ratios.getByText('必须是 JSON 对象，值为不小于 0 的数字').waitFor();
    await group.fill('{"default": 1, "vip": 0.8, "svip": 0.6}');
    await ratios.getByLabel('模型倍率').fill('{"my-model": 3}');
    await ratios.getByRole('button', { name: '保存倍率设置' }).click();
    await toast(page, '保存成功');
    // The chat card's 保存成功 may still be on screen: wait for both ratios themselves (they are written one by one).
    await expect.poll(() => someOptionsOf(api, 'ModelRatio', 'GroupRatio'), { timeout: 10_000 }).toEqual({ ModelRatio: '{"my-model":3}', GroupRatio: '{"default":1,"vip":0.8,"svip":0.6}' });

    await page.reload();
    await expect.poll(() => ratios.getByLabel('模型倍率').inputValue(), { timeout: 10_000 }).toBe('{\n  "my-model": 3\n}');

    // The reset asks first; cancelling changes nothing.
    await ratios.getByRole('button', { name: '重置模型倍率' }).click();
    await page.getByText('确定重置模型倍率吗？').waitFor();
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByText('确定重置模型倍率吗？').waitFor({ state: 'hidden' });
    expect((await optionsOf(api)).ModelRatio).toBe('{"my-model":3}');
    await ratios.getByRole('button', { name: '重置模型倍率' }).click();
    await page.getByRole('button', { name: '重置', exact: true }).click();
    await toast(page, '重置模型倍率成功');
    await expect.poll(async () => JSON.parse((await optionsOf(api)).ModelRatio)['gpt-4o'], { timeout: 10_000 }).toBe(1.25);
    await expect.poll(() => ratios.getByLabel('模型倍率').inputValue(), { timeout: 10_000 }).toContain('"gpt-4o": 1.25');
    await close();
  });
});
