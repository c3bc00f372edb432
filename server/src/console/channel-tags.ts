import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ChannelChanges } from '../store/channels.js';
import { channelsChanged, searchChannels } from '../store/channels.js';
import { channelsOfTags, longestModelsOfTag, setTagStatus, tagsOf, updateChannelsByTag } from '../store/channel-tags.js';
import { fail } from '../lib/errors.js';
import { CreateBody, normalise } from './channel-input.js';
import { ok } from './envelope.js';
import { parse } from './input.js';
import { queryText, type Query } from './query.js';
import type { ChannelOrder, ChannelSearch } from '../store/channels.js';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';

/*
 * Tag operations of the channel list, with the established gateway's paths, bodies and messages: enable or disable
 * every channel of a tag, edit them all at once, and read the tag's model list for the edit form.
 */

export const TAG_MESSAGES = {
  badParams: '参数错误',
  noTag: 'tag不能为空',
} as const;

/** Most channels a tag-mode search looks through. */
const SEARCH_LIMIT = 10_000;

const TagBody = z.object({ tag: z.string().optional() });

/** An edit by tag: absent fields stay; empty models or groups stay too (as the established gateway does). */
const EditTagBody = CreateBody.pick({ priority: true, weight: true, model_mapping: true, models: true, param_override: true }).extend({
  tag: z.string().optional(),
  new_tag: z.union([z.string(), z.null()]).optional(),
  groups: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
});

function tagChanges(tag: string, sent: z.infer<typeof EditTagBody>): ChannelChanges {
  const groups = Array.isArray(sent.groups) ? sent.groups.join(',') : (sent.groups ?? '');
  const changes = normalise({
    priority: sent.priority,
    weight: sent.weight,
    model_mapping: sent.model_mapping,
    param_override: sent.param_override,
    models: sent.models || undefined,
    group: groups.trim() === '' ? undefined : groups,
    tag: sent.new_tag === null || sent.new_tag === undefined || sent.new_tag === tag ? undefined : sent.new_tag,
  });
  if (changes.models === '') delete changes.models;
  return changes;
}

/** A tag-mode search: every channel of the tags the matching channels carry, the tags paged. */
export async function searchTagMode(ctx: AppContext, search: ChannelSearch, order: ChannelOrder, offset: number, size: number): Promise<ChannelRow[]> {
  const db = ctx.db.kysely;
  const tags = tagsOf(await searchChannels(db, search, order, 0, SEARCH_LIMIT)).slice(offset, offset + size);
  return channelsOfTags(db, tags, order);
}

export const channelTagRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  const db = ctx.db.kysely;
  const admin = { config: { access: 'admin' as const } };

  const setStatus = (enabled: boolean) => async (request: { body: unknown }) => {
    const { tag } = parse(TagBody, request.body);
    if (!tag) throw fail(TAG_MESSAGES.badParams);
    const count = await setTagStatus(db, tag, enabled);
    if (count > 0) await channelsChanged(ctx);
    return ok(count);
  };
  app.post('/channel/tag/disabled', admin, setStatus(false));
  app.post('/channel/tag/enabled', admin, setStatus(true));

  app.put('/channel/tag', admin, async (request) => {
    const sent = parse(EditTagBody, request.body);
    if (!sent.tag) throw fail(TAG_MESSAGES.noTag);
    const count = await updateChannelsByTag(db, sent.tag, tagChanges(sent.tag, sent));
    if (count > 0) await channelsChanged(ctx);
    return ok(count);
  });

  app.get('/channel/tag/models', admin, async (request) => {
    const tag = queryText(request.query as Query, 'tag');
    if (!tag) throw fail(TAG_MESSAGES.noTag);
    return ok(await longestModelsOfTag(db, tag));
  });
};
