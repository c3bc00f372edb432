import { describe, expect, it } from 'vitest';
import type { ImportContext } from '../table-import.js';
import { unixSeconds } from '../values.js';
import { channelsImport } from './channels.js';

const ctx = (system: 'new-api' | 'one-api', notes: string[] = []): ImportContext =>
  ({ system, catalog: new Map(), now: 1_700_000_000, quotaPerUnit: 500_000, note: (n: string) => notes.push(n), has: () => true });

describe('channel rows', () => {
  it('brings a multi-key channel of a later new-api in disabled, its keys intact', () => {
    const notes: string[] = [];
    const row = channelsImport().map({ id: 7, type: 1, key: 'k1\nk2', status: 1, models: 'm', group: 'default', channel_info: '{"is_multi_key":true,"multi_key_size":2}' }, ctx('new-api', notes));
    expect(row).toMatchObject({ key: 'k1\nk2', status: 2 });
    expect(JSON.parse((row as { other_info: string }).other_info)).toEqual({ status_reason: '导入：多密钥渠道，请拆分后启用', status_time: 1_700_000_000 });
    expect(notes).toEqual(['imported disabled: a multi-key channel (its keys are kept, one per line)']);
  });

  it('keeps a single-key channel whose key has several lines as it is', () => {
    const row = channelsImport().map({ id: 8, type: 33, key: 'ak|sk|us-east-1', status: 1, channel_info: '{"is_multi_key":false}' }, ctx('new-api'));
    expect(row).toMatchObject({ key: 'ak|sk|us-east-1', status: 1, auto_ban: 1, weight: 0, priority: 0, base_url: '' });
  });

  it('maps one-api type numbers by what they name', () => {
    const map = (type: number) => (channelsImport().map({ id: 1, type, key: 'k', status: 1 }, ctx('one-api')) as { type: number; status: number });
    expect([map(36), map(30), map(40), map(4)].map((c) => [c.type, c.status])).toEqual([[43, 1], [4, 1], [45, 1], [0, 2]]);
  });
});

describe('soft-delete times', () => {
  it('reads GORM datetimes as each driver returns them', () => {
    expect(unixSeconds(null)).toBeNull();
    expect(unixSeconds('2024-05-01 12:00:00.123456789+08:00')).toBe(Date.UTC(2024, 4, 1, 4) / 1000);
    expect(unixSeconds(new Date(Date.UTC(2024, 4, 1, 4)))).toBe(Date.UTC(2024, 4, 1, 4) / 1000);
    expect(unixSeconds('2024-05-01T04:00:00Z')).toBe(Date.UTC(2024, 4, 1, 4) / 1000);
  });
});
