import { createPublicKey } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { testServiceAccount } from '../../../test/mocks/vertex.js';
import { signAssertion } from './assertion.js';
import { parseServiceAccount } from './key.js';

describe('the service-account assertion', () => {
  const account = testServiceAccount();
  const sa = parseServiceAccount(account.key('https://oauth2.googleapis.com/token'));

  it('is an RS256 JWT signed by the key file, naming its key id, with Google’s claims', async () => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await signAssertion(sa, now);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT', kid: account.privateKeyId });
    const { payload } = await jwtVerify(jwt, createPublicKey(account.publicKeyPem), {
      issuer: account.clientEmail,
      audience: 'https://oauth2.googleapis.com/token',
    });
    expect(payload).toEqual({
      iss: account.clientEmail,
      aud: 'https://oauth2.googleapis.com/token',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      iat: now,
      exp: now + 3600,
    });
  });

  it('does not verify with another key', async () => {
    const jwt = await signAssertion(sa, Math.floor(Date.now() / 1000));
    const other = testServiceAccount();
    await expect(jwtVerify(jwt, createPublicKey(other.publicKeyPem))).rejects.toThrow();
  });
});
