import { fail } from '../../lib/errors.js';
/*
 * The WeChat server (the self-hosted companion of an official account): a visitor sends the account a keyword,
 * gets a code valid three minutes, and the gateway trades it for the visitor's openid at
 * {WeChatServerAddress}/api/wechat/user?code= with `Authorization: {WeChatServerToken}`; the answer is
 * {success, message, data: openid}.
 */
const TIMEOUT_MS = 5_000;
const EXPIRED = '验证码错误或已过期';
export async function fetchWeChatOpenId(serverAddress, token, code) {
    const url = `${serverAddress.replace(/\/+$/, '')}/api/wechat/user?code=${encodeURIComponent(code)}`;
    let body;
    try {
        const res = await fetch(url, { headers: { authorization: token, accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
        body = await res.json();
    }
    catch {
        throw fail('无法连接至微信服务器，请稍后重试！');
    }
    const answer = (body ?? {});
    if (answer.success !== true) {
        // The WeChat server's own reason (the established gateway shows it too), or the usual one.
        throw fail(typeof answer.message === 'string' && answer.message ? answer.message.slice(0, 100) : EXPIRED);
    }
    if (typeof answer.data !== 'string' || answer.data === '' || answer.data.length > 128)
        throw fail(EXPIRED);
    return answer.data;
}
//# sourceMappingURL=wechat.js.map