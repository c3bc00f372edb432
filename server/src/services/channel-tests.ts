import { CHANNEL_STATUS, UNTESTABLE_CHANNEL_TYPES } from '@switchyard/shared';
import { routedChannel, type RoutedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';
import { parseChannelInfo } from '../store/channel-keys.js';
import { keyTestSummary, testEveryKey } from './channel-key-tests.js';
import { findChannel, listChannelsWithStatus, recordChannelTest, setChannelStatus } from '../store/channels.js';

/*
 * Channel tests, for the console's test endpoints and the CHANNEL_TEST_FREQUENCY job alike: pick the model, run the
 * relay's test call, save the timing, and apply the monitoring rules (auto-disable, slow-channel disable,
 * auto-enable during the all-channel run). One all-channel run at a time per process.
 */

export const DEFAULT_TEST_MODEL = 'gpt-4o-mini';

export interface TestOutcome {
  success: boolean;
  message: string;
  /** Milliseconds. */
  timeMs: number;
  /** A multi-key channel: each key's own outcome. */
  keys?: Array<{ index: number; success: boolean; message: string; timeMs: number }>;
}

export const TEST_MESSAGES = {
  notFound: '渠道不存在',
  untestable: '该渠道类型不支持测试',
  running: '已有渠道测试正在进行中，请稍后再试',
} as const;

/** The model a test uses: the one asked for, else the channel's test model, else its first model, else gpt-4o-mini. */
export function testModelFor(channel: RoutedChannel, requested?: string): string {
  return requested?.trim() || channel.testModel.trim() || channel.models[0] || DEFAULT_TEST_MODEL;
}

/** One test call; `key` picks one key of a multi-key channel. */
export async function runTest(ctx: AppContext, channel: RoutedChannel, model: string, key?: string): Promise<TestOutcome> {
  // Loaded on first use: the relay (and its upstream pools) stays out of the console's import graph.
  const { testChannel } = await import('../relay/channel-test.js');
  try {
    return await testChannel(ctx, channel, model, key);
  } catch (err) {
    ctx.log.warn({ err, channel: channel.id }, 'channel test failed unexpectedly');
    return { success: false, message: '测试失败', timeMs: 0 };
  }
}

export class ChannelTestRunner {
  private running: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly ctx: AppContext,
    /** Pause between channels of the all-channel run (ms). */
    private readonly pauseMs = 0,
  ) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Tests one channel; the timing is saved, and a failure disables it when monitoring allows. */
  async testOne(id: number, requestedModel?: string): Promise<TestOutcome> {
    const row = await findChannel(this.ctx.db.kysely, id);
    if (!row) return { success: false, message: TEST_MESSAGES.notFound, timeMs: 0 };
    if (parseChannelInfo(row.channel_info) && !UNTESTABLE_CHANNEL_TYPES.includes(row.type)) {
      return keyTestSummary(await testEveryKey(this.ctx, row, false, requestedModel));
    }
    const outcome = await this.test(row, requestedModel);
    if (!outcome.success) await this.disableOnFailure(row, outcome.message);
    return outcome;
  }

  /** Starts testing every enabled and auto-disabled channel in the background; false when a run is in progress. */
  startAll(): boolean {
    if (this.running) return false;
    this.running = this.testAll()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'testing all channels failed'))
      .finally(() => {
        this.running = null;
      });
    return true;
  }

  /** Resolves when the current all-channel run (if any) is over. */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops after the channel under test (app shutdown). */
  async close(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  private async test(row: ChannelRow, requestedModel?: string): Promise<TestOutcome> {
    if (UNTESTABLE_CHANNEL_TYPES.includes(row.type)) return { success: false, message: TEST_MESSAGES.untestable, timeMs: 0 };
    const channel = routedChannel(row);
    const outcome = await runTest(this.ctx, channel, testModelFor(channel, requestedModel));
    await recordChannelTest(this.ctx.db.kysely, row.id, outcome.timeMs, nowSeconds());
    return outcome;
  }

  private async disableOnFailure(row: ChannelRow, message: string): Promise<void> {
    const { options } = this.ctx;
    if (row.status !== CHANNEL_STATUS.ENABLED || row.auto_ban !== 1 || !options.get('AutomaticDisableChannelEnabled')) return;
    await this.disable(row, `测试失败：${message}`);
  }

  private async disable(row: ChannelRow, reason: string): Promise<void> {
    if (await setChannelStatus(this.ctx, row.id, CHANNEL_STATUS.AUTO_DISABLED, reason, [CHANNEL_STATUS.ENABLED])) {
      this.ctx.log.warn(`通道「${row.name}」（#${row.id}）已被禁用，原因：${reason}`);
    }
  }

  private async testAll(): Promise<void> {
    const { options, db } = this.ctx;
    const rows = await listChannelsWithStatus(db.kysely, [CHANNEL_STATUS.ENABLED, CHANNEL_STATUS.AUTO_DISABLED]);
    let tested = 0;
    for (const listed of rows) {
      if (this.stopping) return;
      if (UNTESTABLE_CHANNEL_TYPES.includes(listed.type)) continue;
      // Re-read: an admin may have changed or deleted the channel since the run started.
      const row = await findChannel(db.kysely, listed.id);
      if (!row || (row.status !== CHANNEL_STATUS.ENABLED && row.status !== CHANNEL_STATUS.AUTO_DISABLED)) continue;
      if (parseChannelInfo(row.channel_info)) {
        await testEveryKey(this.ctx, row, true);
        tested++;
        continue;
      }
      const outcome = await this.test(row);
      tested++;
      const thresholdMs = options.get('ChannelDisableThreshold') * 1000;
      if (!outcome.success) await this.disableOnFailure(row, outcome.message);
      else if (row.status === CHANNEL_STATUS.ENABLED && row.auto_ban === 1 && thresholdMs > 0 && outcome.timeMs > thresholdMs) {
        await this.disable(row, `响应时间 ${(outcome.timeMs / 1000).toFixed(2)}s 超过阈值 ${thresholdMs / 1000}s`);
      } else if (row.status === CHANNEL_STATUS.AUTO_DISABLED && options.get('AutomaticEnableChannelEnabled')) {
        if (await setChannelStatus(this.ctx, row.id, CHANNEL_STATUS.ENABLED, '', [CHANNEL_STATUS.AUTO_DISABLED])) {
          this.ctx.log.info(`通道「${row.name}」（#${row.id}）已被启用`);
        }
      }
      if (this.pauseMs > 0) await new Promise((r) => setTimeout(r, this.pauseMs));
    }
    this.ctx.log.info(`channel test finished: ${tested} channels tested`);
  }
}
