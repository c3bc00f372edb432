export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google accepts assertions that live at most an hour. */
export const ASSERTION_LIFETIME_SECONDS = 3600;
/**
 * The signed JWT a service account trades for an access token (Google's OAuth 2.0 JWT bearer flow): RS256 with the
 * key file's private key, its key id in the header.
 */
export async function signAssertion(sa, nowSeconds) {
    // Loaded on first use: a gateway without Vertex channels does not keep jose in memory.
    const { importPKCS8, SignJWT } = await import('jose');
    const key = await importPKCS8(sa.privateKey, 'RS256');
    return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: sa.privateKeyId })
        .setIssuer(sa.clientEmail)
        .setAudience(sa.tokenUri)
        .setIssuedAt(nowSeconds)
        .setExpirationTime(nowSeconds + ASSERTION_LIFETIME_SECONDS)
        .sign(key);
}
//# sourceMappingURL=assertion.js.map