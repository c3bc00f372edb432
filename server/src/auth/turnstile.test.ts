import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type TestApp } from '../test/app.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/smtp-stand-in.js';
import { GOOD_TOKEN, startTurnstileStandIn, TURNSTILE_SECRET, TURNSTILE_SITE_KEY, type TurnstileStandIn } from '../test/turnstile-stand-in.js';
import { closedPort } from '../test/unreachable.js';
import { TURNSTILE_COOKIE } from './turnstile.js';

/*
 * Turnstile before sign-in, registration and the mails, checked at a local siteverify stand-in (TURNSTILE_VERIFY_URL)
 * that accepts one token under the configured secret.
 */

const MISSING = '请稍后几秒重试，Turnstile 正在检查用户环境！';
const REFUSED = 'Turnstile 校验失败，请刷新重试！';

describe('Turnstile', () => {
  let t: TestApp;
  let siteverify: TurnstileStandIn;
  let smtp: SmtpStandIn;
  let n = 0;

  beforeAll(async () => {
    siteverify = await startTurnstileStandIn();
    smtp = await startSmtpStandIn();
    t = await startTestApp(testDatabases(['sqlite'])[0], { TURNSTILE_VERIFY_URL: siteverify.url });
    await t.user('alice');
    const o = t.app.ctx.options;
    for (const [key, value] of Object.entries({ ...smtp.settings(), TurnstileSiteKey: TURNSTILE_SITE_KEY, TurnstileSecretKey: TURNSTILE_SECRET })) {
      expect(await o.set(key as never, value), key).toBeNull();
    }
    expect(await o.set('TurnstileCheckEnabled', 'true')).toBeNull();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await siteverify.close();
  });

  /** The four guarded calls, each for a fresh name or address. */
  const guarded: Record<string, (query: string) => { method: 'GET' | 'POST'; url: string; payload?: object }> = {
    login: (q) => ({ method: 'POST', url: `/api/user/login${q}`, payload: { username: 'alice', password: 'password123' } }),
    register: (q) => ({ method: 'POST', url: `/api/user/register${q}`, payload: { username: `ts${++n}`, password: 'password123', password2: 'password123' } }),
    verification: (q) => ({ method: 'GET', url: `/api/verification${q ? `${q}&` : '?'}email=ts${++n}@example.com` }),
    reset: (q) => ({ method: 'GET', url: `/api/reset_password${q ? `${q}&` : '?'}email=nobody${++n}@example.com` }),
  };
  const call = (route: string, query: string, cookie?: string): Promise<LightMyRequestResponse> => {
    const opts = guarded[route](query);
    return t.app.inject({ ...opts, headers: cookie ? { cookie } : {} });
  };
  const passCookie = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === TURNSTILE_COOKIE);

  it('shows the site key (never the secret) in /api/status', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/status' });
    expect(res.json().data).toMatchObject({ turnstile_check: true, turnstile_site_key: TURNSTILE_SITE_KEY });
    expect(res.body).not.toContain(TURNSTILE_SECRET);
  });

  it.each(Object.keys(guarded))('asks %s for a token, refuses a bad one, lets a good one through', async (route) => {
    expect((await call(route, '')).json()).toEqual({ success: false, message: MISSING });
    expect((await call(route, '?turnstile=')).json()).toEqual({ success: false, message: MISSING });
    const before = siteverify.calls.length;
    const bad = await call(route, '?turnstile=forged');
    expect(bad.json()).toEqual({ success: false, message: REFUSED });
    expect(passCookie(bad)).toBeUndefined();
    expect(siteverify.calls[before]).toEqual({ secret: TURNSTILE_SECRET, response: 'forged', remoteip: '127.0.0.1' });
    const good = await call(route, `?turnstile=${GOOD_TOKEN}`);
    // Past the captcha: the route's own answer (the reset of an unknown address is refused by the route itself).
    expect(good.json().message).not.toBe(REFUSED);
    expect(good.json().message).not.toBe(MISSING);
    if (route !== 'reset') expect(good.json().success).toBe(true);
    expect(passCookie(good)).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });
  });

  it('does not ask a browser again for the rest of its session once it passed, and leaves the login session cookie alone', async () => {
    const good = await call('verification', `?turnstile=${GOOD_TOKEN}`);
    const pass = passCookie(good)!;
    expect(good.cookies.some((c) => c.name === 'session')).toBe(false);
    const cookie = `${TURNSTILE_COOKIE}=${pass.value}`;
    const before = siteverify.calls.length;
    for (const route of Object.keys(guarded)) {
      const res = await call(route, '', cookie);
      expect(res.json().message, route).not.toBe(MISSING);
    }
    expect(siteverify.calls.length).toBe(before);
    // Another browser (no cookie) is asked; a cookie not signed by this server counts for nothing.
    expect((await call('login', '')).json()).toEqual({ success: false, message: MISSING });
    expect((await call('login', '', `${TURNSTILE_COOKIE}=ok.9999999999`)).json()).toEqual({ success: false, message: MISSING });
    const forged = `${TURNSTILE_COOKIE}=${encodeURIComponent(`ok.9999999999.${'A'.repeat(43)}`)}`;
    expect((await call('login', '', forged)).json()).toEqual({ success: false, message: MISSING });
  });

  it('refuses a pass that has run out', async () => {
    const expired = t.app.signCookie(`ok.${Math.floor(Date.now() / 1000) - 1}`);
    expect((await call('login', '', `${TURNSTILE_COOKIE}=${encodeURIComponent(expired)}`)).json()).toEqual({ success: false, message: MISSING });
  });

  it('says so when siteverify cannot be reached', async () => {
    const down = await startTestApp(testDatabases(['sqlite'])[0], { TURNSTILE_VERIFY_URL: `http://127.0.0.1:${await closedPort()}/siteverify` });
    try {
      for (const [key, value] of Object.entries({ TurnstileSiteKey: 'k', TurnstileSecretKey: 's', TurnstileCheckEnabled: 'true' })) {
        await down.app.ctx.options.set(key as never, value);
      }
      const res = await down.app.inject({ method: 'POST', url: `/api/user/login?turnstile=${GOOD_TOKEN}`, payload: { username: 'root', password: '123456' } });
      expect(res.json()).toEqual({ success: false, message: '无法完成 Turnstile 校验，请稍后重试' });
    } finally {
      await down.close();
    }
  });

  it('checks nothing when the captcha is off', async () => {
    await t.app.ctx.options.set('TurnstileCheckEnabled', 'false');
    try {
      expect((await call('login', '')).json()).toMatchObject({ success: true });
    } finally {
      await t.app.ctx.options.set('TurnstileCheckEnabled', 'true');
    }
  });
});
