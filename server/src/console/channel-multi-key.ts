import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { CHANNEL_STATUS, CHANNEL_TYPE, type ChannelKeyPage, type ChannelKeyState } from '@switchyard/shared';
import type { ChannelRow } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import {
  changeKeyPool,
  keyStatus,
  KeyPoolError,
  MULTI_KEY_MODES,
  newChannelInfo,
  parseChannelInfo,
  parseKeys,
  serializeChannelInfo,
  withKeyStatus,
  withoutKeys,
  type ChannelInfo,
  type PoolChange,
} from '../store/channel-keys.js';
import type { ChannelChanges, ChannelInput } from '../store/channels.js';
import { channelsToCreate, CreateBody } from './channel-input.js';
import { ok } from './envelope.js';
import { parse, rowId } from './input.js';

/*
 * Multi-key channels at the console, in the established gateway's API: channel create with `mode`
 * (single | batch | multi_to_single) and `multi_key_mode` (random | polling), either at the top level or around a
 * `channel` object as the incumbent's newer console sends it; channel update with `multi_key_mode` and `key_mode`
 * (append | replace); and POST /api/channel/multi_key/manage {channel_id, action, ...}.
 */

const MANAGE_MESSAGES = {
  notMultiKey: '该渠道不是多密钥模式',
  notFound: '渠道不存在',
  badMode: '不支持的添加模式',
  badKeyMode: '不支持的多密钥模式',
  noIndexDisable: '未指定要禁用的密钥索引',
  noIndexEnable: '未指定要启用的密钥索引',
  noIndexDelete: '未指定要删除的密钥索引',
  badIndex: '密钥索引超出范围',
  lastKey: '不能删除最后一个密钥',
  noneToDisable: '没有可禁用的密钥',
  noAutoDisabled: '没有需要删除的自动禁用密钥',
  allKeys: '不能删除所有密钥',
  badAction: '不支持的操作',
  unsupportedType: '该渠道类型不支持多密钥模式',
} as const;
const M = MANAGE_MESSAGES;

/** Async-task platforms send the channel's key from their own pollers; they keep single keys. */
const SINGLE_KEY_TYPES: ReadonlySet<number> = new Set([CHANNEL_TYPE.MIDJOURNEY, CHANNEL_TYPE.MIDJOURNEY_PLUS, CHANNEL_TYPE.SUNO]);

const CreateMode = z.object({
  mode: z.string().optional(),
  multi_key_mode: z.string().optional(),
  channel: z.record(z.string(), z.unknown()).optional(),
});

/** Keys of a multi-key create: one per line, or a JSON array of Vertex service accounts. */
function poolKeys(type: number, key: string): string[] {
  const trimmed = key.trim();
  if (type === CHANNEL_TYPE.VERTEX_AI && !trimmed.startsWith('[')) return trimmed ? [trimmed] : [];
  return [...new Set(parseKeys(trimmed).filter((k) => k !== ''))];
}

const checkedMode = (mode: string | undefined): string => {
  const m = mode || 'random';
  if (!(MULTI_KEY_MODES as readonly string[]).includes(m)) throw fail(M.badKeyMode);
  return m;
};

/** The channels a create call makes, per its mode. Without a mode: one per line, as before multi-key channels. */
export function channelsForCreate(body: unknown): ChannelInput[] {
  const { mode, multi_key_mode, channel } = parse(CreateMode, body);
  const fields = parse(CreateBody, channel ?? body);
  switch (mode ?? 'batch') {
    case 'batch':
      return channelsToCreate(fields);
    case 'single':
      return channelsToCreate(fields, (_type, key) => (key ? [key] : []));
    case 'multi_to_single': {
      const keyMode = checkedMode(multi_key_mode);
      // One input per key (each checked as a key of its type), folded into one channel holding them all.
      const each = channelsToCreate(fields, poolKeys);
      if (SINGLE_KEY_TYPES.has(each[0].type)) throw fail(M.unsupportedType);
      const keys = each.map((c) => c.key);
      return [{ ...each[0], key: keys.join('\n'), channel_info: serializeChannelInfo(newChannelInfo(keys.length, keyMode)) }];
    }
    default:
      throw fail(M.badMode);
  }
}

const UpdateMode = z.object({ multi_key_mode: z.string().optional(), key_mode: z.enum(['append', 'replace']).optional() });

/**
 * An update of a multi-key channel: `multi_key_mode` switches random/polling; a new key text replaces the pool
 * (a key sent again keeps its status) or, with key_mode append, adds the new keys (deduplicated)
 * after the present ones, whose statuses stay.
 */
export function multiKeyChanges(row: ChannelRow, body: unknown, changes: ChannelChanges): ChannelChanges {
  const info = parseChannelInfo(row.channel_info);
  if (!info) return changes;
  const { multi_key_mode, key_mode } = parse(UpdateMode, body);
  let next: ChannelInfo = info;
  if (multi_key_mode) next = { ...next, multi_key_mode: checkedMode(multi_key_mode), multi_key_polling_index: 0 };
  const out: ChannelChanges = { ...changes };
  if (changes.key !== undefined) {
    const type = changes.type ?? row.type;
    const sent = poolKeys(type, changes.key);
    if (key_mode === 'append') {
      const present = parseKeys(row.key);
      const added = sent.filter((k) => !present.includes(k));
      out.key = [...present, ...added].join('\n');
      next = { ...next, multi_key_size: present.length + added.length };
    } else {
      out.key = sent.join('\n');
      next = carriedStatuses(parseKeys(row.key), next, sent);
    }
  }
  if (next !== info) out.channel_info = serializeChannelInfo(next);
  return out;
}

/**
 * The pool state for a replaced key list: a key sent again keeps its status, reason and time (the edit form sends
 * the whole list back), a new key starts enabled.
 */
function carriedStatuses(present: string[], info: ChannelInfo, sent: string[]): ChannelInfo {
  let next = newChannelInfo(sent.length, info.multi_key_mode);
  sent.forEach((key, i) => {
    const was = present.indexOf(key);
    if (was < 0 || keyStatus(info, was) === CHANNEL_STATUS.ENABLED) return;
    const at = String(was);
    next = withKeyStatus(next, i, keyStatus(info, was), info.multi_key_disabled_reason?.[at] ?? '', info.multi_key_disabled_time?.[at] ?? 0);
  });
  return next;
}

/** What the list and the edit form show of a row's pool: the state, never the keys. */
export function channelInfoView(row: ChannelRow): ChannelInfo | undefined {
  return parseChannelInfo(row.channel_info) ?? undefined;
}

const ManageBody = z.object({
  channel_id: rowId,
  action: z.string(),
  key_index: z.number().int().optional(),
  page: z.number().int().optional(),
  page_size: z.number().int().optional(),
  status: z.number().int().optional(),
});
type Manage = z.infer<typeof ManageBody>;

/** The first 10 characters, as the incumbent shows them. */
const preview = (key: string) => (key.length > 10 ? `${key.slice(0, 10)}...` : key);

function keyStatusPage(row: ChannelRow, info: ChannelInfo, req: Manage): ChannelKeyPage {
  const all: ChannelKeyState[] = [];
  const counts = { 1: 0, 2: 0, 3: 0 } as Record<number, number>;
  parseKeys(row.key).forEach((key, index) => {
    if (key === '') return;
    const status = keyStatus(info, index);
    counts[status] = (counts[status] ?? 0) + 1;
    const state: ChannelKeyState = { index, status, key_preview: preview(key) };
    if (status !== CHANNEL_STATUS.ENABLED) {
      const time = info.multi_key_disabled_time?.[String(index)];
      const reason = info.multi_key_disabled_reason?.[String(index)];
      if (time) state.disabled_time = time;
      if (reason) state.reason = reason;
    }
    const balance = info.multi_key_balance?.[String(index)];
    if (balance !== undefined) {
      state.balance = balance;
      state.balance_updated_time = info.multi_key_balance_time?.[String(index)] ?? 0;
    }
    all.push(state);
  });
  const filtered = req.status === undefined ? all : all.filter((k) => k.status === req.status);
  const pageSize = req.page_size && req.page_size > 0 ? Math.min(req.page_size, 1000) : 50;
  const totalPages = Math.max(1, Math.ceil(filtered.length / pageSize));
  const page = Math.min(Math.max(1, req.page ?? 1), totalPages);
  return {
    keys: filtered.slice((page - 1) * pageSize, page * pageSize),
    total: filtered.length,
    page,
    page_size: pageSize,
    total_pages: totalPages,
    enabled_count: counts[1],
    manual_disabled_count: counts[2],
    auto_disabled_count: counts[3],
  };
}

function indexOf(req: Manage, message: string): number {
  if (req.key_index === undefined) throw fail(message);
  return req.key_index;
}

const inRange = (keys: string[], index: number) => index >= 0 && index < keys.length && keys[index] !== '';

/** The change an action makes, and the message (and data) it answers with. */
function actionChange(req: Manage): { change: PoolChange; done: () => { message: string; data?: unknown } } {
  let count = 0;
  switch (req.action) {
    case 'disable_key':
    case 'enable_key': {
      const index = indexOf(req, req.action === 'disable_key' ? M.noIndexDisable : M.noIndexEnable);
      const status = req.action === 'disable_key' ? CHANNEL_STATUS.MANUALLY_DISABLED : CHANNEL_STATUS.ENABLED;
      return {
        change: (keys, info) => {
          if (!inRange(keys, index)) throw new KeyPoolError(M.badIndex);
          return keyStatus(info, index) === status ? null : { keys, info: withKeyStatus(info, index, status) };
        },
        done: () => ({ message: status === CHANNEL_STATUS.ENABLED ? '密钥已启用' : '密钥已禁用' }),
      };
    }
    case 'enable_all_keys':
      return {
        change: (keys, info) => {
          count = keys.filter((k, i) => k !== '' && keyStatus(info, i) !== CHANNEL_STATUS.ENABLED).length;
          return count === 0 ? null : { keys, info: { ...info, multi_key_status_list: {}, multi_key_disabled_reason: {}, multi_key_disabled_time: {} } };
        },
        done: () => ({ message: `已启用 ${count} 个密钥` }),
      };
    case 'disable_all_keys':
      return {
        change: (keys, info) => {
          let next = info;
          count = 0;
          keys.forEach((k, i) => {
            if (k === '' || keyStatus(info, i) !== CHANNEL_STATUS.ENABLED) return;
            next = withKeyStatus(next, i, CHANNEL_STATUS.MANUALLY_DISABLED);
            count++;
          });
          if (count === 0) throw new KeyPoolError(M.noneToDisable);
          return { keys, info: next };
        },
        done: () => ({ message: `已禁用 ${count} 个密钥` }),
      };
    case 'delete_key': {
      const index = indexOf(req, M.noIndexDelete);
      return {
        change: (keys, info) => {
          if (!inRange(keys, index)) throw new KeyPoolError(M.badIndex);
          const next = withoutKeys(keys, info, (i) => i !== index);
          if (next.keys.length === 0) throw new KeyPoolError(M.lastKey);
          return next;
        },
        done: () => ({ message: '密钥已删除' }),
      };
    }
    case 'delete_disabled_keys':
      return {
        change: (keys, info) => {
          const auto = (i: number) => keyStatus(info, i) === CHANNEL_STATUS.AUTO_DISABLED;
          count = keys.filter((k, i) => k !== '' && auto(i)).length;
          if (count === 0) throw new KeyPoolError(M.noAutoDisabled);
          const next = withoutKeys(keys, info, (i) => !auto(i));
          if (next.keys.length === 0) throw new KeyPoolError(M.allKeys);
          return next;
        },
        done: () => ({ message: `已删除 ${count} 个自动禁用的密钥`, data: count }),
      };
    default:
      throw fail(M.badAction);
  }
}

/** POST /api/channel/multi_key/manage (admin). */
export const multiKeyRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  const db = ctx.db.kysely;
  app.post('/channel/multi_key/manage', { config: { access: 'admin' as const } }, async (request) => {
    const req = parse(ManageBody, request.body);
    const row = await db.selectFrom('channels').selectAll().where('id', '=', req.channel_id).executeTakeFirst();
    if (!row) throw fail(M.notFound);
    const info = parseChannelInfo(row.channel_info);
    if (!info) throw fail(M.notMultiKey);
    if (req.action === 'get_key_status') return ok(keyStatusPage(row, info, req));
    const { change, done } = actionChange(req);
    try {
      await changeKeyPool(ctx, row.id, change);
    } catch (err) {
      if (err instanceof KeyPoolError) throw fail(err.message);
      throw err;
    }
    const { message, data } = done();
    return { success: true, message, ...(data === undefined ? {} : { data }) };
  });
};
