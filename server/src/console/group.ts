import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Options } from '../options/index.js';
import { caller } from '../auth/guard.js';
import { modelsForGroups } from '../store/users.js';
import { ok } from './envelope.js';

/** Label of the user's own group when the operator did not list it among the selectable ones. */
const OWN_GROUP_DESC = '用户分组';

/** Groups a user may pick for tokens: the operator's UserUsableGroups, plus the user's own group. group -> label. */
export function usableGroups(options: Options, userGroup: string): Record<string, string> {
  const groups: Record<string, string> = { ...options.get('UserUsableGroups') };
  if (userGroup && !Object.hasOwn(groups, userGroup)) groups[userGroup] = OWN_GROUP_DESC;
  return groups;
}

/** A group's price multiplier; a group the operator gave no ratio is billed at 1. */
export function groupRatio(options: Options, group: string): number {
  const ratios = options.get('GroupRatio');
  return Object.hasOwn(ratios, group) ? ratios[group] : 1;
}

/** Groups and the models reachable through them. */
export const groupRoutes: FastifyPluginAsync = async (app) => {
  const { options, db } = app.ctx;

  app.get('/group/', { config: { access: 'admin' } }, async () => ok(Object.keys(options.get('GroupRatio'))));

  const ownGroups = async (request: FastifyRequest) => {
    const groups = usableGroups(options, caller(request).group);
    const data: Record<string, { desc: string; ratio: number }> = {};
    for (const [group, desc] of Object.entries(groups)) data[group] = { desc, ratio: groupRatio(options, group) };
    return ok(data);
  };
  app.get('/user/groups', { config: { access: 'user' } }, ownGroups);
  // The established gateway's later name for the same call.
  app.get('/user/self/groups', { config: { access: 'user' } }, ownGroups);

  app.get('/user/models', { config: { access: 'user' } }, async (request) => {
    const groups = Object.keys(usableGroups(options, caller(request).group));
    return ok(await modelsForGroups(db.kysely, groups));
  });
};
