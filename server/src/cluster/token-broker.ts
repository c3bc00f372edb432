import type { Worker } from 'node:cluster';
import { SHARED_TOKEN_CACHES } from '../relay/providers/shared-tokens.js';
import { RelayError } from '../relay/errors.js';
import type { TokenCache } from '../relay/providers/token-cache.js';
import type { TokenReply, TokenRequest } from './messages.js';

/**
 * The primary's half of shared access tokens (relay/providers/shared-tokens.ts): one cache per kind, the exchange
 * made here once for every worker. A token a worker reports as stale is dropped before a new one is made, unless
 * another worker already replaced it.
 */
export class TokenBroker {
  private readonly caches = new Map<string, Promise<TokenCache<unknown>>>();

  handle(from: Worker, m: TokenRequest): void {
    void this.answer(m).then((reply) => {
      if (from.isConnected()) from.send(reply);
    });
  }

  private async answer(m: TokenRequest): Promise<TokenReply> {
    try {
      const open = SHARED_TOKEN_CACHES[m.cache];
      if (!open) throw new Error(`no shared token cache named ${m.cache}`);
      let cache = this.caches.get(m.cache);
      if (!cache) this.caches.set(m.cache, (cache = open()));
      const tokens = await cache;
      if (m.stale) tokens.dropIf(m.credential, m.stale);
      const issued = await tokens.issued(m.credential);
      return { sy: 'token-reply', id: m.id, token: issued.token, expiresIn: issued.expiresIn };
    } catch (err) {
      const e = err instanceof RelayError ? err : null;
      return {
        sy: 'token-reply',
        id: m.id,
        error: { status: e?.status ?? 502, message: e?.message ?? '获取上游访问令牌失败', code: e?.code ?? 'token_exchange_failed', refused: e?.credentialsRefused === true },
      };
    }
  }
}
