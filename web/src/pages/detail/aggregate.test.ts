import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { QuotaDataDto } from '@switchyard/shared';
import { aggregate, averagePerMinute, bucketLabel, bucketStart, defaultRange, parseGranularity } from './aggregate';
import { axisQuota, callsByModel, colorOf, modelShare, quotaOverTime } from './charts';

// Local times, so the expectations hold in every time zone the tests run in.
const at = (local: string) => dayjs(local).unix();
const row = (model: string, local: string, count: number, quota: number): QuotaDataDto => ({
  user_id: 0,
  username: '',
  model_name: model,
  created_at: at(local),
  count,
  token_used: count * 10,
  quota,
  // Eight of each call's ten tokens prompted, two of those read from the cache.
  prompt_tokens: count * 8,
  cache_tokens: count * 2,
});

describe('dashboard buckets', () => {
  it('reads the default granularity from the status, hour unless it says day or week', () => {
    expect(parseGranularity('day')).toBe('day');
    expect(parseGranularity('week')).toBe('week');
    expect(parseGranularity('hour')).toBe('hour');
    expect(parseGranularity(undefined)).toBe('hour');
    expect(parseGranularity('month')).toBe('hour');
  });

  it('puts a moment in its hour, day, and week starting on Monday', () => {
    const t = at('2024-05-16T13:45:10'); // a Thursday
    expect(bucketStart(t, 'hour')).toBe(at('2024-05-16T13:00:00'));
    expect(bucketStart(t, 'day')).toBe(at('2024-05-16T00:00:00'));
    expect(bucketStart(t, 'week')).toBe(at('2024-05-13T00:00:00'));
    expect(bucketStart(at('2024-05-19T23:00:00'), 'week')).toBe(at('2024-05-13T00:00:00')); // Sunday
    expect(bucketStart(at('2024-05-20T00:00:00'), 'week')).toBe(at('2024-05-20T00:00:00')); // Monday
    expect(bucketLabel(at('2024-05-16T13:00:00'), 'hour')).toBe('05-16 13:00');
    expect(bucketLabel(at('2024-05-13T00:00:00'), 'week')).toBe('2024-05-13');
  });

  it('opens on the last day by the hour, the last week by the day and the last month by the week, an hour ahead', () => {
    const now = 1_700_000_000;
    expect(defaultRange('hour', now)).toEqual({ start: now + 3600 - 86400, end: now + 3600 });
    expect(defaultRange('day', now)).toEqual({ start: now + 3600 - 7 * 86400, end: now + 3600 });
    expect(defaultRange('week', now)).toEqual({ start: now + 3600 - 30 * 86400, end: now + 3600 });
  });
});

describe('aggregate', () => {
  const rows = [
    row('gpt-4o', '2024-05-16T10:00:00', 2, 200),
    row('claude-3', '2024-05-16T10:00:00', 5, 100),
    row('gpt-4o', '2024-05-16T12:00:00', 1, 50),
    row('gpt-4o', '2024-05-17T09:00:00', 3, 300),
  ];

  it('sums per model and bucket, lists every bucket of the range, biggest spender first', () => {
    const d = aggregate(rows, 'hour', { start: at('2024-05-16T10:30:00'), end: at('2024-05-16T13:10:00') });
    expect(d.labels).toEqual(['05-16 10:00', '05-16 11:00', '05-16 12:00', '05-16 13:00', '05-17 09:00']);
    expect(d.models.map((m) => m.model)).toEqual(['gpt-4o', 'claude-3']);
    expect(d.quota).toEqual([
      [200, 0, 50, 0, 300],
      [100, 0, 0, 0, 0],
    ]);
    expect(d.count).toEqual([
      [2, 0, 1, 0, 3],
      [5, 0, 0, 0, 0],
    ]);
    expect(d.totals).toEqual({ quota: 650, count: 11, tokens: 110, promptTokens: 88, cacheTokens: 22 });
    expect(d.models[0]).toEqual({ model: 'gpt-4o', quota: 550, count: 6, tokens: 60, promptTokens: 48, cacheTokens: 12 });
  });

  it('folds hours into days and weeks', () => {
    const days = aggregate(rows, 'day', { start: at('2024-05-16T00:00:00'), end: at('2024-05-17T23:00:00') });
    expect(days.labels).toEqual(['2024-05-16', '2024-05-17']);
    expect(days.quota[0]).toEqual([250, 300]);
    const weeks = aggregate([...rows, row('gpt-4o', '2024-05-21T08:00:00', 1, 1)], 'week');
    expect(weeks.labels).toEqual(['2024-05-13', '2024-05-20']);
    expect(weeks.quota[0]).toEqual([550, 1]);
    expect(weeks.count[1]).toEqual([5, 0]);
  });

  it('draws only the buckets with data when the range would hold too many', () => {
    const d = aggregate(rows, 'hour', { start: at('2023-01-01T00:00:00'), end: at('2024-12-31T00:00:00') });
    expect(d.labels).toEqual(['05-16 10:00', '05-16 12:00', '05-17 09:00']);
  });

  it('has no models and zero totals without rows', () => {
    const d = aggregate([], 'day', { start: at('2024-05-16T00:00:00'), end: at('2024-05-17T00:00:00') });
    expect(d.models).toEqual([]);
    expect(d.totals).toEqual({ quota: 0, count: 0, tokens: 0, promptTokens: 0, cacheTokens: 0 });
    expect(d.labels).toHaveLength(2);
  });

  it('averages calls and tokens per minute over the part of the range that has passed', () => {
    const range = { start: 0, end: 7200 };
    expect(averagePerMinute({ count: 60, tokens: 600 }, range, 3600)).toEqual({ rpm: 1, tpm: 10 });
    expect(averagePerMinute({ count: 60, tokens: 600 }, range, 0)).toEqual({ rpm: 0, tpm: 0 });
  });
});

describe('chart options', () => {
  const d = aggregate(
    [row('gpt-4o', '2024-05-16T10:00:00', 2, 500000), row('claude-3', '2024-05-16T11:00:00', 5, 250000)],
    'hour',
  );
  const display = { quotaPerUnit: 500000, displayInCurrency: true };

  it('stacks one bar series per model, in the model colours', () => {
    const option = quotaOverTime(d, display) as { series: Array<{ name: string; stack: string; data: number[]; itemStyle: { color: string } }> };
    expect(option.series.map((s) => [s.name, s.stack, s.data, s.itemStyle.color])).toEqual([
      ['gpt-4o', 'quota', [500000, 0], colorOf(0)],
      ['claude-3', 'quota', [0, 250000], colorOf(1)],
    ]);
  });

  it('ranks calls with the busiest model on top, keeping each model its colour', () => {
    const option = callsByModel(d) as { yAxis: { data: string[] }; series: Array<{ data: Array<{ value: number; itemStyle: { color: string } }> }> };
    expect(option.yAxis.data).toEqual(['gpt-4o', 'claude-3']); // ECharts draws the last category on top
    expect(option.series[0].data.map((p) => [p.value, p.itemStyle.color])).toEqual([
      [2, colorOf(0)],
      [5, colorOf(1)],
    ]);
  });

  it('labels the quota axis with the digits small amounts need', () => {
    expect(axisQuota(1000, display)).toBe('$0.002');
    expect(axisQuota(0, display)).toBe('$0');
    expect(axisQuota(1_250_000, display)).toBe('$2.5');
    expect(axisQuota(1_250_000, { ...display, displayInCurrency: false })).toBe('1.3M');
  });

  it('shares the calls among the models in the pie', () => {
    const option = modelShare(d) as { series: Array<{ type: string; data: Array<{ name: string; value: number }> }> };
    expect(option.series[0].type).toBe('pie');
    expect(option.series[0].data.map((p) => [p.name, p.value])).toEqual([
      ['gpt-4o', 2],
      ['claude-3', 5],
    ]);
  });
});
