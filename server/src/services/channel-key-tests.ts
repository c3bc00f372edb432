import { CHANNEL_STATUS } from '@switchyard/shared';
import { routedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';
import { keyStatus, parseChannelInfo, parseKeys } from '../store/channel-keys.js';
import { recordChannelTest } from '../store/channels.js';
import { runTest, testModelFor, type TestOutcome } from './channel-tests.js';

/*
 * A test of a multi-key channel tests each key that is on or was switched off automatically: a failing key goes off
 * alone (auto-disable); in the all-channel run (`revive`) a passing auto-disabled key comes back (auto-enable). The
 * channel follows its keys. Keys disabled by hand are left alone. The channel's response time is the mean of its
 * keys'.
 */

export interface KeyTestOutcome extends TestOutcome {
  index: number;
}

export async function testEveryKey(ctx: AppContext, row: ChannelRow, revive: boolean, requestedModel?: string): Promise<KeyTestOutcome[]> {
  const info = parseChannelInfo(row.channel_info);
  if (!info) return [];
  const { autoDisableKey, autoEnableKey } = await import('../relay/channel-keys.js');
  const channel = routedChannel(row);
  const model = testModelFor(channel, requestedModel);
  const outcomes: KeyTestOutcome[] = [];
  const keys = parseKeys(row.key);
  for (let index = 0; index < keys.length; index++) {
    const status = keyStatus(info, index);
    if (keys[index] === '' || status === CHANNEL_STATUS.MANUALLY_DISABLED) continue;
    const outcome = await runTest(ctx, channel, model, keys[index]);
    outcomes.push({ ...outcome, index });
    if (!outcome.success && status === CHANNEL_STATUS.ENABLED) {
      await autoDisableKey(ctx, channel, index, `测试失败：${outcome.message}`.slice(0, 500));
    } else if (revive && outcome.success && status === CHANNEL_STATUS.AUTO_DISABLED && ctx.options.get('AutomaticEnableChannelEnabled')) {
      if (await autoEnableKey(ctx, row.id, index)) ctx.log.info(`通道「${row.name}」（#${row.id}）的密钥 #${index} 已被启用`);
    }
  }
  if (outcomes.length > 0) {
    const mean = outcomes.reduce((sum, o) => sum + o.timeMs, 0) / outcomes.length;
    await recordChannelTest(ctx.db.kysely, row.id, mean, nowSeconds());
  }
  return outcomes;
}

/** One answer for a test of every key: passed when every key tested passed; the message names the keys that failed. */
export function keyTestSummary(outcomes: KeyTestOutcome[]): TestOutcome & { keys: KeyTestOutcome[] } {
  const failed = outcomes.filter((o) => !o.success);
  const timeMs = outcomes.length > 0 ? Math.round(outcomes.reduce((sum, o) => sum + o.timeMs, 0) / outcomes.length) : 0;
  if (outcomes.length === 0) return { success: false, message: '渠道没有可测试的密钥', timeMs, keys: outcomes };
  const message = failed.map((o) => `#${o.index}：${o.message}`).join('；');
  return { success: failed.length === 0, message, timeMs, keys: outcomes };
}
