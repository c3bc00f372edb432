import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './account.js';
import { optionRoutes } from './option.js';
import { statusRoutes } from './status.js';
import { userRoutes } from './user.js';
import { tokenRoutes } from './token.js';
import { groupRoutes } from './group.js';
import { channelRoutes } from './channel.js';
import { logRoutes } from './log.js';
import { asyncTaskRoutes } from './async-task.js';
import { dataRoutes } from './data.js';
import { inviteRoutes } from './invite.js';
import { pricingRoutes } from './pricing.js';
import { redemptionRoutes } from './redemption.js';
import { topupRoutes } from './topup.js';
import { oauthRoutes } from './oauth.js';
import { emailRoutes } from './email.js';
import { urlHoldsNul } from './body-parsers.js';
import { AppError } from '../lib/errors.js';
import { CONSOLE_ERRORS } from './errors.js';

/** Every /api route, one plugin per area. */
export const consoleRoutes: FastifyPluginAsync = async (app) => {
  // A NUL in a path or query value is refused as it is in a body (body-parsers.ts): PostgreSQL cannot compare with it.
  app.addHook('onRequest', async (request) => {
    if (urlHoldsNul(request.url)) throw new AppError(400, CONSOLE_ERRORS.nul);
  });
  await app.register(statusRoutes);
  await app.register(accountRoutes);
  await app.register(optionRoutes);
  await app.register(userRoutes);
  await app.register(tokenRoutes);
  await app.register(groupRoutes);
  await app.register(channelRoutes);
  await app.register(logRoutes);
  await app.register(asyncTaskRoutes);
  await app.register(dataRoutes);
  await app.register(inviteRoutes);
  await app.register(pricingRoutes);
  await app.register(redemptionRoutes);
  await app.register(topupRoutes);
  await app.register(oauthRoutes);
  await app.register(emailRoutes);
};
