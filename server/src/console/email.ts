import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { caller } from '../auth/guard.js';
import { requireTurnstile } from '../auth/turnstile.js';
import { bindEmail, resetPassword, sendPasswordReset, sendVerificationCode } from '../services/email-accounts.js';
import { ok } from './envelope.js';
import { parse } from './input.js';

const text = z.string().optional();
const EmailQuery = z.object({ email: text });
const ResetBody = z.object({ email: z.string().nullish(), token: z.string().nullish() });
const BindQuery = z.object({ email: text, code: text });

/** The mailbox routes: codes, password reset by link, binding an email to the signed-in account. */
export const emailRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  app.get('/verification', { config: { access: 'public', critical: true } }, async (request, reply) => {
    await requireTurnstile(ctx, request, reply);
    await sendVerificationCode(ctx, { client: request.ip, email: parse(EmailQuery, request.query).email });
    return ok();
  });

  app.get('/reset_password', { config: { access: 'public', critical: true } }, async (request, reply) => {
    await requireTurnstile(ctx, request, reply);
    await sendPasswordReset(ctx, { client: request.ip, email: parse(EmailQuery, request.query).email });
    return ok();
  });

  app.post('/user/reset', { config: { access: 'public', critical: true } }, async (request) => ok(await resetPassword(ctx, parse(ResetBody, request.body))));

  app.get('/oauth/email/bind', { config: { access: 'user', critical: true } }, async (request) => {
    await bindEmail(ctx, caller(request), parse(BindQuery, request.query));
    return ok();
  });
};
