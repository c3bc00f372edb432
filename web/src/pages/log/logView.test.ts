import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import {
  channelChain,
  defaultWindow,
  detailText,
  durationColor,
  firstTokenColor,
  firstTokenMs,
  logQueryOf,
  parseOther,
  ratioText,
} from './logView';

describe('log page helpers', () => {
  it('colours use time and first-token time by the spec thresholds', () => {
    expect([0, 100, 101, 299, 300].map(durationColor)).toEqual(['green', 'green', 'orange', 'orange', 'red']);
    expect([0, 2999, 3000, 9999, 10000].map(firstTokenColor)).toEqual(['green', 'green', 'orange', 'orange', 'red']);
  });

  it('reads the first-token time of streamed calls only', () => {
    expect(firstTokenMs({ is_stream: true }, { frt: 1530 })).toBe(1530);
    expect(firstTokenMs({ is_stream: true }, { frt: -1 })).toBeNull();
    expect(firstTokenMs({ is_stream: false }, { frt: 1530 })).toBeNull();
  });

  it('reads the retry chain, falling back to the final channel', () => {
    expect(channelChain({ channel: 5 }, parseOther('{"admin_info":{"use_channel":[3,"5"]}}'))).toEqual([3, 5]);
    expect(channelChain({ channel: 5 }, parseOther('{"frt":10}'))).toEqual([5]);
    expect(channelChain({ channel: 0 }, parseOther(''))).toEqual([]);
    expect(parseOther('not json')).toEqual({});
  });

  it('writes the ratios text for a consume row without content', () => {
    expect(ratioText({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, model_price: -1 })).toBe('模型倍率 1.25，补全倍率 4，分组倍率 1');
    expect(ratioText({ model_price: 0.04, group_ratio: 0.8 })).toBe('模型价格 0.04，分组倍率 0.8');
    expect(detailText({ type: 2, content: '' }, { model_ratio: 2, completion_ratio: 1, group_ratio: 1 })).toBe('模型倍率 2，补全倍率 1，分组倍率 1');
    expect(detailText({ type: 1, content: '充值' }, {})).toBe('充值');
  });

  it('adds a consume row’s cache reads and writes, the one-hour writes among them', () => {
    const other = { cache_tokens: 500, cache_creation_tokens: 3000, cache_creation_tokens_1h: 2000 };
    expect(detailText({ type: 2, content: '模型倍率 1' }, other)).toBe('模型倍率 1，缓存读取 500，缓存写入 3000（其中 1 小时 2000）');
    expect(detailText({ type: 2, content: '' }, { cache_creation_tokens: 10 })).toBe('缓存写入 10');
    expect(detailText({ type: 1, content: '充值' }, other)).toBe('充值');
  });

  it('starts the default window at the start of today and ends it one hour ahead', () => {
    const now = dayjs('2026-03-04T15:20:00');
    const [start, end] = defaultWindow(now);
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-03-04 00:00:00');
    expect(end.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-03-04 16:20:00');
  });

  it('builds the query: trimmed texts, unix times, channel and username for admins only', () => {
    const values = { start: dayjs.unix(100), end: dayjs.unix(200), token_name: ' t ', model_name: 'm', channel: ' 7 ', username: ' bob ' };
    expect(logQueryOf(values, 2, true)).toEqual({
      type: 2, token_name: 't', model_name: 'm', start_timestamp: 100, end_timestamp: 200, username: 'bob', channel: 7,
    });
    expect(logQueryOf(values, 0, false)).toEqual({ type: 0, token_name: 't', model_name: 'm', start_timestamp: 100, end_timestamp: 200 });
    expect(logQueryOf({ channel: 'x' }, 0, true).channel).toBe('');
  });
});
