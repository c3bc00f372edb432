import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { codeIn, resetLinkIn, startSmtpStandIn, type SmtpStandIn } from '../test/smtp-stand-in.js';
import { closedPort } from '../test/unreachable.js';
import { findUserByUsername } from '../store/users.js';
import { OPTION_DEFAULTS, type OptionKey } from '../options/index.js';

/*
 * The mailbox routes against a real SMTP server (a local stand-in the gateway reaches over SMTP): the code or link
 * is read from the mail the user would get.
 */

describe.each(testDatabases())('email codes, password reset and email binding on $name', (database) => {
  let t: TestApp;
  let smtp: SmtpStandIn;
  const changed = new Set<OptionKey>();
  let n = 0;
  /** A fresh address per use, so tests do not wait on each other's resend gap. */
  const address = (tag = 'u') => `${tag}${++n}-${database.name}@example.com`;

  async function setOption(key: OptionKey, value: string) {
    changed.add(key);
    expect(await t.app.ctx.options.set(key, value), key).toBeNull();
  }
  async function useSmtp(settings: Record<string, string>) {
    for (const [key, value] of Object.entries(settings)) await setOption(key as OptionKey, value);
  }

  beforeAll(async () => {
    t = await startTestApp(database);
    smtp = await startSmtpStandIn({ auth: { user: 'mailer@switchyard.test', pass: 'smtp-pass' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(async () => {
    client = `198.51.100.${++n % 250}`;
    await useSmtp({ ...smtp.settings(), SystemName: 'Yard' });
  });
  afterEach(async () => {
    for (const key of changed) await t.app.ctx.options.set(key, String(OPTION_DEFAULTS[key]));
    changed.clear();
  });

  /** Each test calls from a client address of its own, so none spends another's mail budget. */
  let client = '';
  const get = (url: string, session: Session | null = null) =>
    t.call(session, { method: 'GET', url, remoteAddress: client }).then((r) => r.json());
  const post = (url: string, payload: object) => t.call(null, { method: 'POST', url, payload, remoteAddress: client }).then((r) => r.json());
  const askCode = (email: string) => get(`/api/verification?email=${encodeURIComponent(email)}`);
  const askReset = (email: string) => get(`/api/reset_password?email=${encodeURIComponent(email)}`);
  /** Makes the last code to the address older than the resend gap. */
  const age = (seconds: number) =>
    t.app.ctx.db.kysely
      .updateTable('email_codes')
      .set((eb) => ({ created_at: eb('created_at', '-', seconds), expires_at: eb('expires_at', '-', seconds) }))
      .execute();

  describe('GET /api/verification', () => {
    it('mails a 6-digit code valid 10 minutes, from SMTPFrom, over an authenticated SMTP session', async () => {
      const email = address();
      expect(await askCode(email)).toEqual({ success: true, message: '' });
      const mail = await smtp.next(email);
      expect(mail.from).toBe('noreply@switchyard.test');
      expect(mail.fromHeader).toBe('"Yard" <noreply@switchyard.test>');
      expect(mail.subject).toBe('Yard邮箱验证邮件');
      expect(mail.text).toContain('您好，你正在进行Yard邮箱验证。');
      expect(mail.text).toContain('验证码 10 分钟内有效');
      expect(codeIn(mail)).toMatch(/^\d{6}$/);
      expect(mail.html).toContain(`<strong>${codeIn(mail)}</strong>`);
    });

    it('escapes the system name in the HTML body', async () => {
      await setOption('SystemName', '<b>Yard</b>');
      const email = address();
      await askCode(email);
      const mail = await smtp.next(email);
      expect(mail.html).toContain('&lt;b&gt;Yard&lt;/b&gt;');
      expect(mail.html).not.toContain('<b>Yard</b>');
    });

    it('sends From the account when SMTPFrom is empty', async () => {
      await setOption('SMTPFrom', '');
      const email = address();
      await askCode(email);
      expect((await smtp.next(email)).from).toBe('mailer@switchyard.test');
    });

    it('refuses a missing or malformed address', async () => {
      expect(await get('/api/verification')).toEqual({ success: false, message: '请输入邮箱！' });
      expect(await get('/api/verification?email=')).toEqual({ success: false, message: '请输入邮箱！' });
      for (const bad of ['plain', 'a@b', 'a b@example.com', '@example.com', `${'x'.repeat(250)}@example.com`]) {
        expect(await askCode(bad), bad).toEqual({ success: false, message: '邮箱地址格式不正确' });
      }
      expect(await get('/api/verification?email=a@example.com&email=b@example.com')).toMatchObject({ success: false });
    });

    it('refuses a second code to the same address within 30 seconds', async () => {
      const email = address();
      expect(await askCode(email)).toMatchObject({ success: true });
      expect(await askCode(email)).toMatchObject({ success: false, message: expect.stringMatching(/^发送过于频繁，请 \d+ 秒后再试$/) });
      await age(31);
      expect(await askCode(email)).toMatchObject({ success: true });
    });

    it('sends at most 20 mails in 20 minutes for one client address, whatever the addresses', async () => {
      for (let i = 0; i < 20; i++) expect(await askCode(address('many')), `mail ${i + 1}`).toMatchObject({ success: true });
      expect(await askCode(address('many'))).toEqual({ success: false, message: '发送邮件过于频繁，请稍后再试' });
      const owner = await t.user(`mb${n}${database.name.slice(0, 2)}`);
      const email = address('many');
      await t.app.ctx.db.kysely.updateTable('users').set({ email }).where('id', '=', owner.userId).execute();
      expect(await askReset(email)).toEqual({ success: false, message: '发送邮件过于频繁，请稍后再试' });
      client = '198.51.100.251';
      expect(await askReset(email)).toMatchObject({ success: true });
    });

    it('refuses an address an account holds', async () => {
      const session = await t.user(`own${n}${database.name.slice(0, 2)}`);
      const email = address('own');
      await t.app.ctx.db.kysely.updateTable('users').set({ email }).where('id', '=', session.userId).execute();
      expect(await askCode(email)).toEqual({ success: false, message: '邮箱地址已被占用' });
      expect(smtp.mails.some((m) => m.to.includes(email))).toBe(false);
    });

    it('keeps to the domain whitelist when it is on', async () => {
      await setOption('EmailDomainWhitelist', 'example.com, Allowed.org');
      await setOption('EmailDomainRestrictionEnabled', 'true');
      const message = '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中';
      expect(await askCode(`w${++n}@other.com`)).toEqual({ success: false, message });
      expect(await askCode(`w${++n}@sub.example.com`)).toEqual({ success: false, message });
      expect(await askCode(`w${++n}@ALLOWED.org`)).toMatchObject({ success: true });
      expect(await askCode(address())).toMatchObject({ success: true });
    });

    it('refuses aliases (+ or . in the local part) when the alias rule is on', async () => {
      await setOption('EmailAliasRestrictionEnabled', 'true');
      const message = '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。';
      expect(await askCode(`me+tag${++n}@gmail.com`)).toEqual({ success: false, message });
      expect(await askCode(`m.e${++n}@gmail.com`)).toEqual({ success: false, message });
      expect(await askCode(`plain${++n}@gmail.com`)).toMatchObject({ success: true });
      await setOption('EmailAliasRestrictionEnabled', 'false');
      expect(await askCode(`me+tag${++n}@gmail.com`)).toMatchObject({ success: true });
    });

    it('says so when SMTP is not configured', async () => {
      await setOption('SMTPServer', '');
      expect(await askCode(address())).toEqual({ success: false, message: 'SMTP 服务器未配置，请联系管理员' });
    });

    it('says so, without the server’s own words, when the SMTP server is down, refuses the login or the mail; the address may ask again at once', async () => {
      const message = '邮件发送失败，请稍后重试或联系管理员检查 SMTP 配置';
      const email = address();
      await setOption('SMTPPort', String(await closedPort()));
      expect(await askCode(email)).toEqual({ success: false, message });

      await setOption('SMTPPort', String(smtp.port));
      await setOption('SMTPToken', 'wrong-password');
      expect(await askCode(email)).toEqual({ success: false, message });

      const refusing = await startSmtpStandIn({ refuseRecipients: true });
      try {
        await useSmtp(refusing.settings());
        expect(await askCode(email)).toEqual({ success: false, message });
      } finally {
        await refusing.close();
      }
      await useSmtp(smtp.settings());
      expect(await askCode(email)).toEqual({ success: true, message: '' });
      expect(codeIn(await smtp.next(email))).toMatch(/^\d{6}$/);
    });
  });

  describe('registration with email verification', () => {
    beforeEach(async () => {
      await setOption('EmailVerificationEnabled', 'true');
    });
    const register = (username: string, email: string, code: string) =>
      post('/api/user/register', { username, password: 'password123', password2: 'password123', email, verification_code: code });

    it('creates the account with the mailed code, once', async () => {
      const email = address();
      await askCode(email);
      const code = codeIn(await smtp.next(email));
      const name = `reg${n}`;
      expect(await register(name, email, code)).toEqual({ success: true, message: '' });
      expect((await findUserByUsername(t.app.ctx.db.kysely, name))?.email).toBe(email);
      expect(await register(`${name}b`, email, code)).toEqual({ success: false, message: '验证码错误或已过期' });
      expect(await findUserByUsername(t.app.ctx.db.kysely, `${name}b`)).toBeUndefined();
    });

    it('refuses a wrong code, and voids the code after 5 wrong ones', async () => {
      const email = address();
      await askCode(email);
      const code = codeIn(await smtp.next(email));
      const wrong = code === '123456' ? '654321' : '123456';
      for (let i = 0; i < 4; i++) expect(await register(`wr${n}`, email, wrong)).toEqual({ success: false, message: '验证码错误或已过期' });
      expect(await register(`wr${n}`, email, wrong)).toEqual({ success: false, message: '验证码错误或已过期' });
      expect(await register(`wr${n}`, email, code)).toEqual({ success: false, message: '验证码错误或已过期' });
      expect(await findUserByUsername(t.app.ctx.db.kysely, `wr${n}`)).toBeUndefined();
    });

    it('refuses an expired code', async () => {
      const email = address();
      await askCode(email);
      const code = codeIn(await smtp.next(email));
      await age(10 * 60);
      expect(await register(`ex${n}`, email, code)).toEqual({ success: false, message: '验证码错误或已过期' });
    });

    it('keeps the code when the sign-up is refused for another reason', async () => {
      const email = address();
      await askCode(email);
      const code = codeIn(await smtp.next(email));
      await setOption('EmailVerificationEnabled', 'false');
      await t.user(`taken${n}`);
      await setOption('EmailVerificationEnabled', 'true');
      expect(await register(`taken${n}`, email, code)).toEqual({ success: false, message: '用户名已存在，或已注销' });
      expect(await register(`free${n}`, email, code)).toEqual({ success: true, message: '' });
    });

    it('lets one of two simultaneous sign-ups with one code through', async () => {
      const email = address();
      await askCode(email);
      const code = codeIn(await smtp.next(email));
      const results = await Promise.all([register(`ra${n}`, email, code), register(`rb${n}`, email, code)]);
      expect(results.filter((r) => r.success)).toHaveLength(1);
    });
  });

  describe('password reset', () => {
    async function account(): Promise<{ username: string; email: string; session: Session }> {
      const username = `rs${++n}${database.name.slice(0, 2)}`;
      const session = await t.user(username);
      const email = address('reset');
      await t.app.ctx.db.kysely.updateTable('users').set({ email }).where('id', '=', session.userId).execute();
      return { username, email, session };
    }

    it('mails a link to {ServerAddress}/user/reset whose token sets a new password, once', async () => {
      await setOption('ServerAddress', 'https://gateway.example.com/');
      const { username, email, session } = await account();
      expect(await askReset(email)).toEqual({ success: true, message: '' });
      const mail = await smtp.next(email);
      expect(mail.subject).toBe('Yard密码重置');
      expect(mail.text).toContain('重置链接 10 分钟内有效');
      const link = new URL(resetLinkIn(mail));
      expect(`${link.origin}${link.pathname}`).toBe('https://gateway.example.com/user/reset');
      expect(link.searchParams.get('email')).toBe(email);
      const token = link.searchParams.get('token')!;
      expect(token).toMatch(/^[0-9a-f]{32}$/);
      expect(mail.html).toContain(`href="${link.toString().replace(/&/g, '&amp;')}"`);

      const reset = await post('/api/user/reset', { email, token });
      expect(reset).toMatchObject({ success: true, message: '' });
      expect(reset.data).toMatch(/^[A-Za-z0-9]{12}$/);
      await t.login(username, reset.data as string);
      await expect(t.login(username, 'password123')).rejects.toThrow();
      // The sessions opened with the old password are over.
      expect((await t.call(session, { method: 'GET', url: '/api/user/self' })).statusCode).toBe(401);
      expect(await post('/api/user/reset', { email, token })).toEqual({ success: false, message: '重置链接非法或已过期' });
    });

    it('links to this server on localhost when ServerAddress is empty (never to the Host header)', async () => {
      const { email } = await account();
      await t.call(null, { method: 'GET', url: `/api/reset_password?email=${encodeURIComponent(email)}`, headers: { host: 'evil.example' } });
      expect(resetLinkIn(await smtp.next(email))).toMatch(/^http:\/\/localhost:\d+\/user\/reset\?/);
    });

    it('refuses a wrong, expired, foreign or missing token without changing the password', async () => {
      const { username, email } = await account();
      const other = await account();
      await askReset(email);
      const token = new URL(resetLinkIn(await smtp.next(email))).searchParams.get('token')!;
      const wrong = { success: false, message: '重置链接非法或已过期' };
      expect(await post('/api/user/reset', { email, token: 'f'.repeat(32) })).toEqual(wrong);
      expect(await post('/api/user/reset', { email: other.email, token })).toEqual(wrong);
      expect(await post('/api/user/reset', { email })).toEqual({ success: false, message: '无效的参数' });
      expect(await post('/api/user/reset', { token })).toEqual({ success: false, message: '无效的参数' });
      expect(await post('/api/user/reset', {})).toEqual({ success: false, message: '无效的参数' });
      expect(await post('/api/user/reset', { email: 1, token: 2 })).toMatchObject({ success: false });
      await age(10 * 60);
      expect(await post('/api/user/reset', { email, token })).toEqual(wrong);
      await t.login(username, 'password123');
    });

    it('refuses an address no live account holds, and a second mail within 30 seconds', async () => {
      expect(await askReset(address('nobody'))).toEqual({ success: false, message: '该邮箱地址未注册' });
      const { email } = await account();
      expect(await askReset(email)).toMatchObject({ success: true });
      expect(await askReset(email)).toMatchObject({ success: false, message: expect.stringMatching(/^发送过于频繁/) });
      await age(31);
      await t.app.ctx.db.kysely.updateTable('users').set({ deleted_at: 1 }).where('email', '=', email).execute();
      expect(await askReset(email)).toEqual({ success: false, message: '该邮箱地址未注册' });
    });
  });

  describe('GET /api/oauth/email/bind', () => {
    it('binds, then changes, the signed-in user’s email with a mailed code', async () => {
      const session = await t.user(`bd${++n}${database.name.slice(0, 2)}`);
      for (const email of [address('bind'), address('change')]) {
        await askCode(email);
        const code = codeIn(await smtp.next(email));
        expect(await get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`, session)).toEqual({ success: true, message: '' });
        expect((await get('/api/user/self', session)).data.email).toBe(email);
        // Used up.
        expect(await get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`, session)).toEqual({
          success: false,
          message: '验证码错误或已过期',
        });
      }
    });

    it('refuses missing fields, a wrong code and an address another account took meanwhile', async () => {
      const session = await t.user(`bx${++n}${database.name.slice(0, 2)}`);
      expect(await get('/api/oauth/email/bind?code=123456', session)).toEqual({ success: false, message: '请输入邮箱！' });
      expect(await get('/api/oauth/email/bind?email=a@example.com', session)).toEqual({ success: false, message: '请输入邮箱验证码！' });
      const email = address('race');
      await askCode(email);
      const code = codeIn(await smtp.next(email));
      const wrong = code === '123456' ? '654321' : '123456';
      expect(await get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${wrong}`, session)).toEqual({
        success: false,
        message: '验证码错误或已过期',
      });
      const rival = await t.user(`by${n}${database.name.slice(0, 2)}`);
      await t.app.ctx.db.kysely.updateTable('users').set({ email }).where('id', '=', rival.userId).execute();
      expect(await get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`, session)).toEqual({
        success: false,
        message: '邮箱地址已被占用',
      });
      expect((await get('/api/user/self', session)).data.email).toBe('');
    });
  });
});
