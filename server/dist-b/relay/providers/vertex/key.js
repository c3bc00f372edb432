import { RelayError } from '../../errors.js';
export const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const REQUIRED = ['project_id', 'private_key_id', 'private_key', 'client_email'];
export function invalidKey() {
    return new RelayError(500, 'Vertex AI 渠道密钥应为服务账号 JSON', 'invalid_channel_key', undefined, false);
}
/** The channel key (a service-account JSON file's content) as a ServiceAccount; throws when it is not one. */
export function parseServiceAccount(key) {
    let parsed;
    try {
        parsed = JSON.parse(key);
    }
    catch {
        throw invalidKey();
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw invalidKey();
    const json = parsed;
    if (json.type !== undefined && json.type !== 'service_account')
        throw invalidKey();
    for (const field of REQUIRED)
        if (typeof json[field] !== 'string' || json[field] === '')
            throw invalidKey();
    const tokenUri = typeof json.token_uri === 'string' && json.token_uri ? json.token_uri : DEFAULT_TOKEN_URI;
    return {
        projectId: json.project_id,
        privateKeyId: json.private_key_id,
        privateKey: json.private_key,
        clientEmail: json.client_email,
        tokenUri,
    };
}
//# sourceMappingURL=key.js.map