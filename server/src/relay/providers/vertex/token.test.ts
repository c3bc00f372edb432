import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayError } from '../../errors.js';
import { startVertexMock, testServiceAccount, type VertexMock } from '../../../test/mocks/vertex.js';
import { parseServiceAccount, type ServiceAccount } from './key.js';
import { AccessTokenCache, fetchAccessToken, type TokenFetcher } from './token.js';

const sa = (email = 'a@p.iam.gserviceaccount.com', keyId = 'k1'): ServiceAccount => ({
  projectId: 'p',
  privateKeyId: keyId,
  privateKey: 'unused',
  clientEmail: email,
  tokenUri: 'https://oauth2.googleapis.com/token',
});

/** A fetcher handing out tok-1, tok-2 … with a lifetime of an hour, recording its calls. */
function countingFetcher(lifetime = 3600) {
  const calls: string[] = [];
  const fetcher: TokenFetcher = async (account) => {
    calls.push(account.clientEmail);
    await new Promise((r) => setTimeout(r, 5));
    return { token: `tok-${calls.length}`, expiresIn: lifetime };
  };
  return { calls, fetcher };
}

describe('AccessTokenCache', () => {
  it('fetches one token for many calls of the same service account', async () => {
    const { calls, fetcher } = countingFetcher();
    const cache = new AccessTokenCache(fetcher);
    for (let i = 0; i < 5; i++) expect(await cache.get(sa())).toBe('tok-1');
    expect(calls).toHaveLength(1);
  });

  it('keeps one token per service account', async () => {
    const { calls, fetcher } = countingFetcher();
    const cache = new AccessTokenCache(fetcher);
    expect(await cache.get(sa('a@p'))).toBe('tok-1');
    expect(await cache.get(sa('b@p'))).toBe('tok-2');
    expect(await cache.get(sa('a@p'))).toBe('tok-1');
    expect(await cache.get(sa('a@p', 'rotated'))).toBe('tok-3');
    expect(calls).toEqual(['a@p', 'b@p', 'a@p']);
  });

  it('fetches again once the token is within five minutes of expiring', async () => {
    let now = 1_000_000;
    const { calls, fetcher } = countingFetcher(3600);
    const cache = new AccessTokenCache(fetcher, () => now);
    expect(await cache.get(sa())).toBe('tok-1');
    now += (3600 - 5 * 60) * 1000 - 1;
    expect(await cache.get(sa())).toBe('tok-1');
    now += 1;
    expect(await cache.get(sa())).toBe('tok-2');
    expect(calls).toHaveLength(2);
  });

  it('shares one in-flight fetch between concurrent calls', async () => {
    const { calls, fetcher } = countingFetcher();
    const cache = new AccessTokenCache(fetcher);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => cache.get(sa())));
    expect(new Set(tokens)).toEqual(new Set(['tok-1']));
    expect(calls).toHaveLength(1);
  });

  it('does not remember a failed fetch', async () => {
    let fail = true;
    let calls = 0;
    const cache = new AccessTokenCache(async () => {
      calls++;
      if (fail) throw new RelayError(502, 'Vertex AI 获取访问令牌失败', 'vertex_token_failed', undefined, false);
      return { token: 'fresh', expiresIn: 3600 };
    });
    const concurrent = await Promise.allSettled([cache.get(sa()), cache.get(sa())]);
    expect(concurrent.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    fail = false;
    expect(await cache.get(sa())).toBe('fresh');
    expect(calls).toBe(2);
  });

  it('uses a token shorter-lived than the margin once, without keeping it', async () => {
    const { calls, fetcher } = countingFetcher(60);
    const cache = new AccessTokenCache(fetcher);
    expect(await cache.get(sa())).toBe('tok-1');
    expect(await cache.get(sa())).toBe('tok-2');
    expect(calls).toHaveLength(2);
  });
});

describe('fetchAccessToken against the token endpoint', () => {
  const account = testServiceAccount('token-project');
  let mock: VertexMock;

  beforeAll(async () => {
    mock = await startVertexMock({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail, projectId: account.projectId, privateKeyId: account.privateKeyId });
  });
  afterAll(() => mock.close());

  it('trades the signed assertion for an access token and its lifetime', async () => {
    const token = await fetchAccessToken(parseServiceAccount(account.key(`${mock.url}/token`)), Date.now());
    expect(token.token).toMatch(/^ya29\.mock-/);
    expect(token.expiresIn).toBe(3599);
    expect(mock.tokens.has(token.token)).toBe(true);
  });

  it('fails with a 502 that names neither the key nor the URL when Google refuses the assertion', async () => {
    const stranger = testServiceAccount('token-project', account.clientEmail);
    const err = await fetchAccessToken(parseServiceAccount(stranger.key(`${mock.url}/token`)), Date.now()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RelayError);
    expect(err).toMatchObject({ status: 502, code: 'vertex_token_failed', local: false });
    const message = (err as RelayError).message;
    expect(message).toContain('invalid_grant');
    expect(message).not.toContain(mock.url);
    expect(message).not.toContain('127.0.0.1');
    expect(message).not.toMatch(/PRIVATE KEY|ey[A-Za-z0-9_-]{10,}/);
  });

  it('refuses an assertion that is expired', async () => {
    const sa = parseServiceAccount(account.key(`${mock.url}/token`));
    await expect(fetchAccessToken(sa, Date.now() - 2 * 3600_000)).rejects.toMatchObject({ code: 'vertex_token_failed' });
  });

  it('fails with a 502 when the token endpoint cannot be reached', async () => {
    const sa = parseServiceAccount(account.key('http://127.0.0.1:1/token'));
    const err = await fetchAccessToken(sa, Date.now()).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, code: 'vertex_token_failed', local: false });
    expect((err as Error).message).not.toContain('127.0.0.1');
  });

  it('reports a private key that is not a key as a bad channel key', async () => {
    const sa = { ...parseServiceAccount(account.key(`${mock.url}/token`)), privateKey: 'not a key' };
    await expect(fetchAccessToken(sa, Date.now())).rejects.toMatchObject({ status: 500, code: 'invalid_channel_key' });
  });
});
