import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { UserRow } from '../db/schema.js';
import { AppError, fail } from '../lib/errors.js';
import { nowSeconds } from '../lib/time.js';
import { caller } from '../auth/guard.js';
import { openSession, readSession, sessionAccount } from '../auth/session.js';
import { AFF_CODE, clearOAuthState, issueOAuthState, readOAuthState } from '../auth/oauth/state.js';
import { fetchGitHubAccount } from '../auth/oauth/github.js';
import { fetchWeChatOpenId } from '../auth/oauth/wechat.js';
import { verifyTelegramLogin } from '../auth/oauth/telegram.js';
import { bindTo, checkUsable, OAUTH_MSG, signInWith, type OAuthMethod } from '../services/oauth/sign-in.js';
import { maxUserId } from '../store/user-bindings.js';
import { loginView } from './account.js';
import { ok } from './envelope.js';
import { parse } from './input.js';

const StateQuery = z.object({ aff: z.string().optional() });
const GitHubQuery = z.object({ code: z.string().min(1).max(512), state: z.string().min(1).max(128) });
const CodeQuery = z.object({ code: z.string().trim().min(1).max(128) });

const DISABLED: Record<OAuthMethod, string> = {
  github: '管理员未开启通过 GitHub 登录以及注册',
  wechat: '管理员未开启通过微信登录以及注册',
  telegram: '管理员未开启通过 Telegram 登录以及注册',
};
const NOT_SIGNED_IN = '未登录或登录已过期，请重新登录！';

const sameText = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A top-level navigation (the Telegram widget's auth URL) rather than a call of the console's API client. */
const isNavigation = (request: FastifyRequest): boolean => String(request.headers.accept ?? '').includes('text/html');

/** GitHub, WeChat and Telegram sign-in and account binding (spec §7, "OAuth and bindings"). */
export const oauthRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const { options, config } = ctx;
  const db = ctx.db.kysely;

  /** Every refusal is written to the server log: a wrong state, a replayed code or a stale payload may be an attack. */
  async function audited<T>(method: OAuthMethod, request: FastifyRequest, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError) ctx.log.warn({ method, url: request.routeOptions.url, ip: request.ip, reason: err.message }, 'third-party sign-in refused');
      throw err;
    }
  }

  function requireEnabled(method: OAuthMethod, ready: boolean): void {
    const on = { github: 'GitHubOAuthEnabled', wechat: 'WeChatAuthEnabled', telegram: 'TelegramOAuthEnabled' } as const;
    if (!options.get(on[method])) throw fail(DISABLED[method]);
    if (!ready) throw fail('管理员未完成该登录方式的配置');
  }

  /**
   * The browser's signed-in account: its session cookie (these calls come from sign-in pages and the widget, not
   * with an access token), when the console's New-Api-User agrees or is absent (a page the widget opened). A
   * console that holds no user (-1) or another one is signing in, not binding.
   */
  async function sessionUser(request: FastifyRequest): Promise<UserRow | null> {
    const claims = readSession(request);
    if (!claims) return null;
    const header = request.headers['new-api-user'];
    if (header !== undefined && header !== String(claims.userId)) return null;
    const user = await sessionAccount(db, request);
    return user && user.deleted_at === null ? user : null;
  }

  /** Opens the session of an account a third-party sign-in found or created, from the row as it is stored now. */
  async function startSession(reply: FastifyReply, user: UserRow) {
    const stored = await openSession(reply, db, user.id, config.sessionCookieSecure);
    if (!stored) throw fail(OAUTH_MSG.deregistered);
    return ok(loginView(stored), '登录成功！');
  }

  const wechatOpenId = (code: string) => fetchWeChatOpenId(options.get('WeChatServerAddress'), options.get('WeChatServerToken'), code);

  app.get('/oauth/state', { config: { access: 'public', critical: true } }, async (request, reply) => {
    const aff = parse(StateQuery, request.query).aff?.trim() ?? '';
    if (aff !== '' && !AFF_CODE.test(aff)) throw fail('无效的参数：aff');
    return ok(issueOAuthState(reply, aff, config.sessionCookieSecure));
  });

  // One callback for both: a signed-in browser binds the GitHub account (answer 'bind'), anyone else signs in with it.
  app.get('/oauth/github', { config: { access: 'public', critical: true } }, (request, reply) =>
    audited('github', request, async () => {
      const clientId = options.get('GitHubClientId');
      const clientSecret = options.get('GitHubClientSecret');
      requireEnabled('github', clientId !== '' && clientSecret !== '');
      const query = parse(GitHubQuery, request.query);
      const saved = readOAuthState(request);
      if (!saved || !sameText(saved.state, query.state)) throw fail('state 为空或不一致，请重新发起 GitHub 登录');
      const signedIn = await sessionUser(request);
      if (signedIn) checkUsable(signedIn);
      const account = await fetchGitHubAccount({ oauthUrl: config.githubOAuthUrl, apiUrl: config.githubApiUrl, clientId, clientSecret }, query.code);
      if (signedIn) {
        await bindTo(ctx, 'github', signedIn, { id: account.id, importedAs: account.login });
        clearOAuthState(reply);
        return ok(undefined, 'bind');
      }
      const user = await signInWith(ctx, 'github', { id: account.id, importedAs: account.login }, {
        username: account.login,
        displayName: account.name || account.login,
        email: account.email,
        inviterCode: saved.aff,
      });
      clearOAuthState(reply);
      return startSession(reply, user);
    }),
  );

  app.get('/oauth/wechat', { config: { access: 'public', critical: true } }, (request, reply) =>
    audited('wechat', request, async () => {
      requireEnabled('wechat', options.get('WeChatServerAddress') !== '');
      const { code } = parse(CodeQuery, request.query);
      const openId = await wechatOpenId(code);
      const user = await signInWith(ctx, 'wechat', { id: openId }, {
        username: `wechat_${(await maxUserId(db)) + 1}`,
        displayName: 'WeChat User',
        email: '',
        inviterCode: '',
      });
      return startSession(reply, user);
    }),
  );

  app.get('/oauth/wechat/bind', { config: { access: 'user', critical: true } }, (request) =>
    audited('wechat', request, async () => {
      requireEnabled('wechat', options.get('WeChatServerAddress') !== '');
      const { code } = parse(CodeQuery, request.query);
      await bindTo(ctx, 'wechat', caller(request), { id: await wechatOpenId(code) });
      return ok(undefined, '微信账户绑定成功！');
    }),
  );

  app.get('/oauth/telegram/login', { config: { access: 'public', critical: true } }, (request, reply) =>
    audited('telegram', request, async () => {
      const botToken = options.get('TelegramBotToken');
      requireEnabled('telegram', botToken !== '');
      const profile = verifyTelegramLogin(request.query, botToken, nowSeconds());
      const user = await signInWith(ctx, 'telegram', { id: profile.id });
      return startSession(reply, user);
    }),
  );

  // Reached by the console's API client, or as a page when the widget is given this URL as its auth URL: a page
  // goes back to the personal settings, as on other gateways.
  app.get('/oauth/telegram/bind', { config: { access: 'public', critical: true } }, (request, reply) =>
    audited('telegram', request, async () => {
      const botToken = options.get('TelegramBotToken');
      requireEnabled('telegram', botToken !== '');
      const profile = verifyTelegramLogin(request.query, botToken, nowSeconds());
      const user = await sessionUser(request);
      if (!user) throw fail(NOT_SIGNED_IN);
      await bindTo(ctx, 'telegram', checkUsable(user), { id: profile.id });
      if (isNavigation(request)) return reply.redirect('/setting?tab=personal');
      return ok(undefined, 'Telegram 账户绑定成功！');
    }),
  );
};
