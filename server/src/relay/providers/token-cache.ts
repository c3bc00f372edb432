/** A credential an upstream issued (or one made here) and how long it lasts. */
export interface IssuedToken {
  token: string;
  /** Lifetime in seconds from when it was asked for. */
  expiresIn: number;
}

/** Gets a fresh token for a credential; `nowMs` is when it was asked for. */
export type TokenIssuer<K> = (credential: K, nowMs: number) => Promise<IssuedToken>;

interface Entry {
  token: string;
  /** When to stop using it (ms): its expiry minus the margin. */
  renewAt: number;
  /** When it expires (ms). */
  expiresAt: number;
}

/**
 * Short-lived tokens per credential (an OAuth access token per service account or client id, a signed JWT per
 * key), reused until shortly before they expire. Concurrent requests for one credential share one in-flight
 * issue; a failed issue is not remembered, so the next request tries again.
 */
export class TokenCache<K> {
  private readonly tokens = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    /** What identifies a credential (two keys with the same id share their token). */
    private readonly idOf: (credential: K) => string,
    private readonly issue: TokenIssuer<K>,
    private readonly now: () => number = Date.now,
    private readonly marginMs = 5 * 60_000,
    private readonly maxEntries = 1000,
  ) {}

  get(credential: K): Promise<string> {
    const id = this.idOf(credential);
    const cached = this.tokens.get(id);
    if (cached && this.now() < cached.renewAt) return Promise.resolve(cached.token);
    const pending = this.inFlight.get(id);
    if (pending) return pending;
    const issuing = this.fetch(id, credential).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, issuing);
    return issuing;
  }

  /** The token with the lifetime it has left (0 when it is not kept: used once), for a cache that hands it on. */
  async issued(credential: K): Promise<IssuedToken> {
    const token = await this.get(credential);
    const entry = this.tokens.get(this.idOf(credential));
    return { token, expiresIn: entry?.token === token ? Math.max(0, (entry.expiresAt - this.now()) / 1000) : 0 };
  }

  /** Forgets a credential's token (the upstream said it is no longer valid). */
  drop(credential: K): void {
    this.tokens.delete(this.idOf(credential));
  }

  /** Forgets a credential's token if it is still `token` (one that another holder found stale). */
  dropIf(credential: K, token: string): void {
    const id = this.idOf(credential);
    if (this.tokens.get(id)?.token === token) this.tokens.delete(id);
  }

  private async fetch(id: string, credential: K): Promise<string> {
    const startedAt = this.now();
    const { token, expiresIn } = await this.issue(credential, startedAt);
    // A lifetime shorter than the margin is still used once, for this request, but never kept.
    const expiresAt = startedAt + expiresIn * 1000;
    const renewAt = expiresAt - this.marginMs;
    if (renewAt > this.now()) {
      if (this.tokens.size >= this.maxEntries) this.evictExpired();
      this.tokens.set(id, { token, renewAt, expiresAt });
    }
    return token;
  }

  private evictExpired(): void {
    const now = this.now();
    for (const [id, entry] of this.tokens) if (entry.renewAt <= now) this.tokens.delete(id);
    // Still full of live tokens (keys rotated in bulk): drop the oldest insertion.
    if (this.tokens.size >= this.maxEntries) this.tokens.delete(this.tokens.keys().next().value!);
  }
}
