import type { FastifyPluginAsync } from 'fastify';
import type { StatusData } from '@switchyard/shared';
import type { AppContext } from '../context.js';
import { fail } from '../lib/errors.js';
import { ok } from './envelope.js';

/** Everything the console caches from GET /api/status (spec §3, both records). */
export function statusData(ctx: AppContext): StatusData {
  const o = ctx.options;
  const chatLink = o.get('ChatLink');
  return {
    version: ctx.version,
    start_time: ctx.startTime,
    system_name: o.get('SystemName'),
    logo: o.get('Logo'),
    footer_html: o.get('Footer'),
    quota_per_unit: o.get('QuotaPerUnit'),
    display_in_currency: o.get('DisplayInCurrencyEnabled'),
    display_token_stat: o.get('DisplayTokenStatEnabled'),
    enable_drawing: o.get('DrawingEnabled'),
    enable_task: o.get('TaskEnabled'),
    enable_data_export: o.get('DataExportEnabled'),
    chats: o.get('Chats'),
    data_export_default_time: o.get('DataExportDefaultTime'),
    default_collapse_sidebar: o.get('DefaultCollapseSidebar'),
    mj_notify_enabled: o.get('MjNotifyEnabled'),
    chat_link: chatLink,
    chat_link2: o.get('ChatLink2'),
    github_oauth: o.get('GitHubOAuthEnabled'),
    github_client_id: o.get('GitHubClientId'),
    github_oauth_url: ctx.config.githubOAuthUrl,
    wechat_login: o.get('WeChatAuthEnabled'),
    wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
    telegram_oauth: o.get('TelegramOAuthEnabled'),
    telegram_bot_name: o.get('TelegramBotName'),
    turnstile_check: o.get('TurnstileCheckEnabled'),
    turnstile_site_key: o.get('TurnstileSiteKey'),
    email_verification: o.get('EmailVerificationEnabled'),
    server_address: o.get('ServerAddress'),
    top_up_link: o.get('TopUpLink'),
    min_topup: o.get('MinTopUp'),
    enable_online_topup: o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '',
    price: o.get('Price'),
    docs_link: o.get('general_setting.docs_link'),
    demo_site_enabled: o.get('DemoSiteEnabled'),
    self_use_mode_enabled: o.get('SelfUseModeEnabled'),
    root_default_password: ctx.accounts.rootUsesDefaultPassword,
    register_enabled: o.get('RegisterEnabled'),
    password_login_enabled: o.get('PasswordLoginEnabled'),
    password_register_enabled: o.get('PasswordRegisterEnabled'),
    setup: true,
    enable_batch_update: true,
    linuxdo_oauth: false,
    linuxdo_client_id: '',
    oidc_enabled: false,
    oidc_client_id: '',
    oidc_authorization_endpoint: '',
  };
}

export const statusRoutes: FastifyPluginAsync = async (app) => {
  app.get('/status', { config: { access: 'public' } }, async () => ok(statusData(app.ctx)));
  app.get('/notice', { config: { access: 'public' } }, async () => ok(app.ctx.options.get('Notice')));
  app.get('/about', { config: { access: 'public' } }, async () => ok(app.ctx.options.get('About')));
  // The established console asks whether its setup wizard is needed: never here (root exists from the first start).
  app.get('/setup', { config: { access: 'public' } }, async () => ok({ status: true, root_init: true, database_type: app.ctx.db.dialect }));
  app.post('/setup', { config: { access: 'public' } }, async () => {
    throw fail('系统已经初始化完成');
  });
  app.get('/home_page_content', { config: { access: 'public' } }, async () => ok(app.ctx.options.get('HomePageContent')));
};
