import { fail } from '../../lib/errors.js';
/*
 * GitHub's side of a sign-in: the code the authorize page handed back is exchanged for an access token
 * ({GITHUB_OAUTH_URL}/login/oauth/access_token), which reads the account ({GITHUB_API_URL}/user). GitHub codes
 * work once: a replayed one comes back as bad_verification_code.
 */
const TIMEOUT_MS = 10_000;
const UNREACHABLE = '无法连接至 GitHub 服务器，请稍后重试！';
const BAD_ANSWER = '返回值非法，用户字段为空，请稍后重试！';
async function call(url, init) {
    let res;
    try {
        res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    }
    catch {
        throw fail(UNREACHABLE);
    }
    let body;
    try {
        body = await res.json();
    }
    catch {
        throw fail(BAD_ANSWER);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw fail(BAD_ANSWER);
    return body;
}
async function accessToken(creds, code) {
    const body = await call(`${creds.oauthUrl}/login/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ client_id: creds.clientId, client_secret: creds.clientSecret, code }),
    });
    if (body.error === 'bad_verification_code')
        throw fail('GitHub 授权码无效或已被使用，请重新登录');
    if (body.error === 'incorrect_client_credentials')
        throw fail('GitHub Client Id 或 Client Secret 错误，请联系管理员');
    if (body.error !== undefined)
        throw fail('GitHub 授权失败，请稍后重试');
    if (typeof body.access_token !== 'string' || body.access_token === '')
        throw fail(BAD_ANSWER);
    return body.access_token;
}
const text = (v) => (typeof v === 'string' ? v : '');
export async function fetchGitHubAccount(creds, code) {
    const token = await accessToken(creds, code);
    const user = await call(`${creds.apiUrl}/user`, {
        headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/vnd.github+json',
            // The GitHub API refuses requests without a User-Agent.
            'user-agent': 'Switchyard',
        },
    });
    const id = user.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || !text(user.login))
        throw fail(BAD_ANSWER);
    return { id: String(id), login: text(user.login), name: text(user.name), email: text(user.email) };
}
//# sourceMappingURL=github.js.map