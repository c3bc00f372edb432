import cluster from 'node:cluster';
import { isClusterMessage, type TokenReply, type TokenRequest } from '../../cluster/messages.js';
import { RelayError } from '../errors.js';
import type { IssuedToken, TokenCache, TokenIssuer } from './token-cache.js';

/*
 * Access tokens an upstream issues for a key (an OAuth exchange: Baidu's, Vertex's), shared by the workers of a node: a worker asks the
 * primary, which makes the exchange once and hands the token to every worker that asks (cluster/token-broker.ts).
 * Each worker still keeps what it got (its own TokenCache), so it asks once per token lifetime. Nodes do not share:
 * a token would have to be kept in the database or Redis, a bearer credential at rest, to save one exchange per
 * node and lifetime.
 */

/**
 * The caches the primary keeps, by name; loaded only when a worker first asks. A cache is given the credentials its
 * own provider's workers send (the IPC message carries them untyped).
 */
export const SHARED_TOKEN_CACHES: Record<string, () => Promise<TokenCache<unknown>>> = {
  baidu: async () => (await import('./baidu/token.js')).baiduTokenCache() as unknown as TokenCache<unknown>,
  vertex: async () => new (await import('./vertex/token.js')).AccessTokenCache() as unknown as TokenCache<unknown>,
};

/** Longer than any exchange may take (Baidu's: 30 s), so the primary's own failure is what a call sees. */
const REPLY_TIMEOUT_MS = 40_000;

let nextId = 1;
const waiting = new Map<number, (reply: TokenReply) => void>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  process.on('message', (m: unknown) => {
    if (isClusterMessage(m) && m.sy === 'token-reply') waiting.get(m.id)?.(m);
  });
}

function ask(cache: string, credential: unknown, stale: string | null): Promise<IssuedToken> {
  listen();
  const id = nextId++;
  return new Promise<IssuedToken>((resolve, reject) => {
    const timer = setTimeout(() => answer({ sy: 'token-reply', id, error: { status: 502, message: '获取上游访问令牌超时', code: 'token_exchange_timeout', refused: false } }), REPLY_TIMEOUT_MS);
    timer.unref();
    const answer = (reply: TokenReply) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (reply.token !== undefined) return resolve({ token: reply.token, expiresIn: reply.expiresIn ?? 0 });
      const e = reply.error ?? { status: 502, message: '获取上游访问令牌失败', code: 'token_exchange_failed', refused: false };
      const err = new RelayError(e.status, e.message, e.code, undefined, false);
      if (e.refused) err.credentialsRefused = true;
      reject(err);
    };
    waiting.set(id, answer);
    process.send!({ sy: 'token', id, cache, credential, stale } satisfies TokenRequest);
  });
}

/**
 * The issuer a provider's TokenCache uses: under a primary, the primary's shared cache `name` (the exchange made by
 * `local` there); otherwise `local` itself.
 */
export function sharedOnNode<K>(name: string, local: TokenIssuer<K>): TokenIssuer<K> {
  if (!cluster.isWorker || !process.send) return local;
  // The last token handed out per credential: asked again, this worker no longer uses it.
  const last = new Map<string, string>();
  return async (credential) => {
    const key = JSON.stringify(credential);
    const issued = await ask(name, credential, last.get(key) ?? null);
    last.set(key, issued.token);
    return issued;
  };
}
