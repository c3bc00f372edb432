import { z } from 'zod';
import { fail } from '../lib/errors.js';
import { isOptionKey, isSecretKey, OPTION_DEFAULTS } from '../options/index.js';
import { ok } from './envelope.js';
import { parse } from './input.js';
const PutBody = z.object({
    key: z.string().min(1),
    value: z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v)),
});
/** Turning a feature on needs its credentials first; the texts are what operators of such gateways know. */
function prerequisite(options, key, value) {
    if (value !== 'true')
        return null;
    switch (key) {
        case 'GitHubOAuthEnabled':
            return options.get('GitHubClientId') && options.get('GitHubClientSecret')
                ? null
                : '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！';
        case 'EmailDomainRestrictionEnabled':
            return options.get('EmailDomainWhitelist') ? null : '无法启用邮箱域名限制，请先填入限制的邮箱域名！';
        case 'WeChatAuthEnabled':
            return options.get('WeChatServerAddress') ? null : '无法启用微信登录，请先填入微信登录相关配置信息！';
        case 'TurnstileCheckEnabled':
            return options.get('TurnstileSiteKey') && options.get('TurnstileSecretKey')
                ? null
                : '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！';
        case 'TelegramOAuthEnabled':
            return options.get('TelegramBotToken') && options.get('TelegramBotName')
                ? null
                : '无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Telegram Bot Name！';
        default:
            return null;
    }
}
export const optionRoutes = async (app) => {
    const { options } = app.ctx;
    app.get('/option/', { config: { access: 'root' } }, async () => {
        const list = Object.keys(OPTION_DEFAULTS)
            .filter((key) => !isSecretKey(key))
            .map((key) => ({ key, value: options.raw(key) }));
        return ok(list);
    });
    /** Which secrets hold a value (never the values), so the console can say a blank secret field keeps one. */
    app.get('/option/secret_status', { config: { access: 'root' } }, async () => {
        const keys = Object.keys(OPTION_DEFAULTS).filter(isSecretKey);
        return ok(Object.fromEntries(keys.map((key) => [key, options.raw(key) !== ''])));
    });
    app.put('/option/', { config: { access: 'root' } }, async (request) => {
        const { key, value } = parse(PutBody, request.body);
        if (!isOptionKey(key))
            throw fail(`未知的配置项：${key}`);
        const blocked = prerequisite(options, key, value);
        if (blocked)
            throw fail(blocked);
        const error = await options.set(key, value);
        if (error)
            throw fail(error);
        return ok();
    });
    app.post('/option/rest_model_ratio', { config: { access: 'root' } }, async () => {
        const error = await options.set('ModelRatio', JSON.stringify(OPTION_DEFAULTS.ModelRatio));
        if (error)
            throw fail(error);
        return ok(undefined, '重置模型倍率成功');
    });
};
//# sourceMappingURL=option.js.map