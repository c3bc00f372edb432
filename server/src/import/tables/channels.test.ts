import { describe, expect, it } from 'vitest';
import type { ImportContext } from '../table-import.js';
import { unixSeconds } from '../values.js';
import { keyPoolOf } from '../../store/channel-keys.js';
import { channelsImport } from './channels.js';

const ctx = (system: 'new-api' | 'one-api', notes: string[] = []): ImportContext =>
  ({ system, catalog: new Map(), now: 1_700_000_000, quotaPerUnit: 500_000, note: (n: string) => notes.push(n), has: () => true });

describe('channel rows', () => {
  it('brings a multi-key channel of a later new-api in enabled, with its key mode and each key’s state', () => {
    const notes: string[] = [];
    const info = {
      is_multi_key: true,
      multi_key_size: 5, // stale: the keys decide
      multi_key_status_list: { '1': 3, '2': 2, '7': 3 },
      multi_key_disabled_reason: { '1': 'status 401: invalid key', '7': 'gone' },
      multi_key_disabled_time: { '1': 1_699_999_000 },
      multi_key_polling_index: 2,
      multi_key_mode: 'polling',
    };
    const row = channelsImport().map(
      { id: 7, type: 1, key: 'k1\nk2\nk3', status: 1, models: 'm', group: 'default', other_info: '', channel_info: JSON.stringify(info) },
      ctx('new-api', notes),
    ) as { key: string; status: number; other_info: string; channel_info: string };
    expect(row).toMatchObject({ key: 'k1\nk2\nk3', status: 1, other_info: '' });
    expect(JSON.parse(row.channel_info)).toEqual({
      is_multi_key: true,
      multi_key_size: 3,
      multi_key_status_list: { '1': 3, '2': 2 },
      multi_key_disabled_reason: { '1': 'status 401: invalid key' },
      multi_key_disabled_time: { '1': 1_699_999_000 },
      multi_key_polling_index: 2,
      multi_key_mode: 'polling',
    });
    // What the relay then chooses from: the one key not disabled, in turn from the stored index.
    expect(keyPoolOf(row)).toMatchObject({ mode: 'polling', pollingStart: 2, size: 3, enabled: [{ index: 0, key: 'k1' }] });
    expect(notes).toEqual([]);
  });

  it('reads channel_info as the MySQL and PostgreSQL drivers return a JSON column, and names a mode not offered', () => {
    const notes: string[] = [];
    const sa = [{ type: 'service_account', client_email: 'a@p.iam.gserviceaccount.com' }, { type: 'service_account', client_email: 'b@p.iam.gserviceaccount.com' }];
    const row = channelsImport().map(
      { id: 9, type: 41, key: JSON.stringify(sa), status: 1, channel_info: { is_multi_key: true, multi_key_size: 2, multi_key_mode: 'sticky' } },
      ctx('new-api', notes),
    ) as { status: number; channel_info: string };
    expect(row.status).toBe(1);
    expect(JSON.parse(row.channel_info)).toEqual({ is_multi_key: true, multi_key_size: 2, multi_key_polling_index: 0, multi_key_mode: 'sticky' });
    expect(keyPoolOf({ key: JSON.stringify(sa), channel_info: row.channel_info })?.enabled).toHaveLength(2);
    expect(notes).toEqual(['multi-key mode "sticky" not offered: those channels use their first enabled key']);
  });

  it('keeps a single-key channel whose key has several lines as it is', () => {
    const row = channelsImport().map({ id: 8, type: 33, key: 'ak|sk|us-east-1', status: 1, channel_info: '{"is_multi_key":false}' }, ctx('new-api'));
    expect(row).toMatchObject({ key: 'ak|sk|us-east-1', status: 1, auto_ban: 1, weight: 0, priority: 0, base_url: '', channel_info: null });
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
