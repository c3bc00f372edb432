import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { CHANNEL_TYPES, type ChannelDto } from '@switchyard/shared';
import { routedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { enabledModels, fixAbilities } from '../store/abilities.js';
import {
  channelsChanged,
  deleteChannels,
  deleteDisabledChannels,
  findChannel,
  insertChannels,
  listChannels,
  searchChannels,
  updateChannel,
  type ChannelOrder,
} from '../store/channels.js';
import { canFetchModels, fetchUpstreamModels, unsavedChannel, UpstreamQueryError } from '../services/channel-upstream.js';
import { changesFor, CHANNEL_MESSAGES as M, FetchModelsBody, IdsBody, UpdateBody } from './channel-input.js';
import { channelInfoView, channelsForCreate, multiKeyChanges, multiKeyRoutes } from './channel-multi-key.js';
import { TEST_MESSAGES } from '../services/channel-tests.js';
import { updateAllBalances, updateChannelBalance } from '../services/channel-balances.js';
import { ok } from './envelope.js';
import { channelTagRoutes, searchTagMode } from './channel-tags.js';
import { tagModePage } from '../store/channel-tags.js';
import { idParam, parse } from './input.js';
import { paging, queryFlag, queryText, type Query } from './query.js';

export { CHANNEL_MESSAGES } from './channel-input.js';

/** The DTO; the key only when one channel is read by id. */
export function channelView(row: ChannelRow, withKey = false): ChannelDto {
  const { key, ...rest } = row;
  const dto: ChannelDto = { ...rest, priority: Number(row.priority), balance: Number(row.balance), channel_info: channelInfoView(row) };
  if (withKey) dto.key = key;
  return dto;
}

const orderOf = (query: Query): ChannelOrder => (queryFlag(query, 'id_sort') ? 'id' : 'priority');

async function existing(ctx: AppContext, request: FastifyRequest): Promise<ChannelRow> {
  const id = idParam(request.params);
  const row = id === undefined ? undefined : await findChannel(ctx.db.kysely, id);
  if (!row) throw fail(M.notFound);
  return row;
}

const upstreamMessage = (err: unknown, fallback: string) => (err instanceof UpstreamQueryError ? err.message : fallback);

/** Default models of every type, distinct, each named with the first type that lists it. */
function allDefaultModels(): Array<{ id: string; object: 'model'; owned_by: string }> {
  const seen = new Map<string, string>();
  for (const t of CHANNEL_TYPES) for (const m of t.models) if (!seen.has(m)) seen.set(m, t.name);
  return [...seen].sort(([a], [b]) => a.localeCompare(b)).map(([id, owner]) => ({ id, object: 'model', owned_by: owner }));
}

/** Channel type code -> default model list, for the channel form. */
function modelsByType(): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const t of CHANNEL_TYPES) out[t.value] = [...t.models];
  return out;
}

/** Channel management (admin), plus the type -> default models map every signed-in user may read. */
export const channelRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  const db = ctx.db.kysely;
  const admin = { config: { access: 'admin' as const } };
  const tests = ctx.channelTests;
  await app.register(multiKeyRoutes);

  app.get('/models', { config: { access: 'user' } }, async () => ok(modelsByType()));
  app.get('/channel/models', admin, async () => ok(allDefaultModels()));
  app.get('/channel/models_enabled', admin, async () => ok(await enabledModels(db)));

  app.get('/channel/', admin, async (request) => {
    const query = request.query as Query;
    const { offset, size } = paging(query);
    const rows = queryFlag(query, 'tag_mode') ? await tagModePage(db, orderOf(query), offset, size) : await listChannels(db, orderOf(query), offset, size);
    return ok(rows.map((r) => channelView(r)));
  });

  app.get('/channel/search', admin, async (request) => {
    const query = request.query as Query;
    const { offset, size } = paging(query, { defaultSize: 100 });
    const search = { keyword: queryText(query, 'keyword'), group: queryText(query, 'group'), model: queryText(query, 'model') };
    const rows = queryFlag(query, 'tag_mode')
      ? await searchTagMode(ctx, search, orderOf(query), offset, size)
      : await searchChannels(db, search, orderOf(query), offset, size);
    return ok(rows.map((r) => channelView(r)));
  });

  await app.register(channelTagRoutes);

  app.get('/channel/:id', admin, async (request) => ok(channelView(await existing(ctx, request), true)));

  app.post('/channel/', admin, async (request) => {
    const ids = await insertChannels(db, channelsForCreate(request.body));
    await channelsChanged(ctx);
    return ok(ids);
  });

  app.put('/channel/', admin, async (request) => {
    const body = parse(UpdateBody, request.body);
    const row = await findChannel(db, body.id);
    if (!row) throw fail(M.notFound);
    const { id, ...sent } = body;
    if (!(await updateChannel(db, id, multiKeyChanges(row, request.body, changesFor(row, sent))))) throw fail(M.notFound);
    await channelsChanged(ctx);
    return ok(channelView((await findChannel(db, id))!));
  });

  const remove = async (request: FastifyRequest) => {
    const id = idParam(request.params);
    if (id === undefined || (await deleteChannels(db, [id])) === 0) throw fail(M.notFound);
    await channelsChanged(ctx);
    return ok();
  };
  app.delete('/channel/:id/', admin, remove);
  app.delete('/channel/:id', admin, remove);

  app.delete('/channel/disabled', admin, async () => {
    const count = await deleteDisabledChannels(db);
    if (count > 0) await channelsChanged(ctx);
    return ok(count);
  });

  app.post('/channel/batch', admin, async (request) => {
    const { ids } = parse(IdsBody, request.body);
    if (ids.length === 0) throw fail(M.noSelection);
    const count = await deleteChannels(db, [...new Set(ids)]);
    if (count > 0) await channelsChanged(ctx);
    return ok(count);
  });

  app.post('/channel/fix', admin, async () => {
    const count = await fixAbilities(db);
    await channelsChanged(ctx);
    return ok(count);
  });

  app.get('/channel/fetch_models/:id', admin, async (request) => {
    const row = await existing(ctx, request);
    if (!canFetchModels(row.type)) throw fail('仅支持 OpenAI 接口格式');
    try {
      return ok(await fetchUpstreamModels(routedChannel(row), ctx.relay.upstream));
    } catch (err) {
      throw fail(upstreamMessage(err, '获取模型列表失败'));
    }
  });

  // Scripts written for the established gateway ask an unsaved channel's models with its type, key and base URL.
  app.post('/channel/fetch_models', admin, async (request) => {
    const body = parse(FetchModelsBody, request.body);
    if (!canFetchModels(body.type)) throw fail('仅支持 OpenAI 接口格式');
    try {
      return ok(await fetchUpstreamModels(unsavedChannel(body), ctx.relay.upstream));
    } catch (err) {
      throw fail(upstreamMessage(err, '获取模型列表失败'));
    }
  });

  // ---- tests ----

  app.get('/channel/test/:id', admin, async (request) => {
    const id = idParam(request.params);
    if (id === undefined) throw fail(TEST_MESSAGES.notFound);
    const model = queryText(request.query as Query, 'model');
    const outcome = await tests.testOne(id, model || undefined);
    const time = outcome.timeMs / 1000;
    const keys = outcome.keys?.map((k) => ({ index: k.index, success: k.success, message: k.message, time: k.timeMs / 1000 }));
    return { success: outcome.success, message: outcome.message, time, data: keys ? { time, keys } : { time } };
  });

  app.get('/channel/test', admin, async () => {
    if (!tests.startAll()) throw fail(TEST_MESSAGES.running);
    return ok();
  });

  // ---- balances ----

  const updateOne = async (request: FastifyRequest) => {
    const row = await existing(ctx, request);
    try {
      const { balance, keys } = await updateChannelBalance(ctx, row);
      return { success: true, message: '', balance, data: keys ? { balance, keys } : { balance } };
    } catch (err) {
      if (!(err instanceof UpstreamQueryError)) throw err;
      throw fail(err.message);
    }
  };
  app.get('/channel/update_balance/:id/', admin, updateOne);
  app.get('/channel/update_balance/:id', admin, updateOne);

  app.get('/channel/update_balance', admin, async () => ok(await updateAllBalances(ctx)));
};
