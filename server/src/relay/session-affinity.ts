import type { IncomingHttpHeaders } from 'node:http';
import type { Bus } from '../cache/bus.js';
import type { Options } from '../options/index.js';
import type { ClientCall } from './types.js';

/*
 * Session affinity. A coding agent resends the same long prefix every turn, and the upstream bills it as a cache
 * read (a tenth of the price) only when the turn reaches the channel and key that cached it. So each turn of a
 * session goes to the channel (and, in a multi-key channel, the key) that answered the session's last turn, while it
 * is a candidate, healthy and not yet tried by this call; a failure there lets the retry rules pick another, whose
 * answer then holds the session. Without a session id a call has no affinity.
 *
 * Every worker keeps the sessions in memory; a new or moved session is published on the bus, so the other workers
 * (IPC) and nodes (Redis) route its next turn the same way. A session whose pick is unchanged is published again
 * only once half its lifetime has passed, so the others keep it alive without a message per turn.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 256 ? v : null);
const header = (headers: IncomingHttpHeaders, name: string): string | null => text(headers[name]);

/** Claude Code's session: its header, else the session in metadata.user_id (a JSON object, or `user_…_session_<id>`). */
function claudeSession(json: Obj, headers: IncomingHttpHeaders): string | null {
  const fromHeader = header(headers, 'x-claude-code-session-id');
  if (fromHeader) return fromHeader;
  const userId = isObj(json.metadata) ? json.metadata.user_id : undefined;
  if (typeof userId !== 'string' || userId.length > 2048) return null;
  if (userId.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(userId);
      if (isObj(parsed)) return text(parsed.session_id) ?? text(parsed.device_id);
    } catch {
      // Not JSON after all: the whole value names the user.
    }
  }
  return text(/_session_([\w-]+)$/.exec(userId)?.[1]) ?? text(userId);
}

/** The id of the agent session a call belongs to, or null. */
export function sessionOf(call: ClientCall, headers: IncomingHttpHeaders): string | null {
  const json = call.json;
  if (!json) return null;
  switch (call.format) {
    case 'claude':
      return claudeSession(json, headers);
    case 'responses':
      return text(json.prompt_cache_key) ?? header(headers, 'session_id') ?? header(headers, 'session-id') ?? text(json.user);
    case 'openai':
      // opencode names its session in headers of its own (x-session-affinity, x-session-id) on every call.
      return text(json.prompt_cache_key) ?? header(headers, 'x-session-affinity') ?? header(headers, 'x-session-id') ?? text(json.user);
    default:
      return null;
  }
}

/** How long a group's sessions are held, in ms; 0 when affinity is off for it (SessionAffinityGroupTTL, else SessionAffinityTTL). */
export function affinityTtlMs(options: Options, group: string): number {
  const groups = options.get('SessionAffinityGroupTTL');
  const seconds = Object.hasOwn(groups, group) ? groups[group] : options.get('SessionAffinityTTL');
  return seconds * 1000;
}

/** Where a session's turns go. */
export interface Sticky {
  channelId: number;
  /** The key's index in a multi-key channel, -1 for a single-key one. */
  keyIndex: number;
}

interface Held extends Sticky {
  expiresAt: number;
  /** When it was last published (this process) or heard (from another). */
  sharedAt: number;
}

const TOPIC = 'session-affinity';
/** Sessions a process holds at most; the oldest go first. */
const MAX_SESSIONS = 200_000;

export class SessionAffinity {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly bus: Bus,
    private readonly now: () => number = Date.now,
  ) {
    bus.subscribe(TOPIC, (message) => this.heard(message));
  }

  /** The key a session is held under: one user's session of one model in one group. */
  static keyOf(userId: number, group: string, model: string, session: string): string {
    return `${userId}\n${group}\n${model}\n${session}`;
  }

  /** Where the session's turns go, or null when it is new or has expired. */
  lookup(key: string): Sticky | null {
    const held = this.held.get(key);
    if (!held) return null;
    if (held.expiresAt <= this.now()) {
      this.held.delete(key);
      return null;
    }
    return held;
  }

  /** The session's turn was answered by this channel and key: its next turns go there for `ttlMs`. */
  remember(key: string, channelId: number, keyIndex: number, ttlMs: number): void {
    const now = this.now();
    const held = this.held.get(key);
    const moved = !held || held.channelId !== channelId || held.keyIndex !== keyIndex;
    if (!moved && now - held.sharedAt < ttlMs / 2) {
      held.expiresAt = now + ttlMs;
      return;
    }
    this.hold(key, { channelId, keyIndex, expiresAt: now + ttlMs, sharedAt: now });
    this.bus.publish(TOPIC, JSON.stringify([key, channelId, keyIndex, ttlMs])).catch(() => {
      // Another worker that misses it routes the session anew; its answer is published in turn.
    });
  }

  get size(): number {
    return this.held.size;
  }

  private hold(key: string, held: Held): void {
    this.held.delete(key);
    this.held.set(key, held);
    if (this.held.size > MAX_SESSIONS) this.held.delete(this.held.keys().next().value as string);
  }

  private heard(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || parsed.length !== 4) return;
    const [key, channelId, keyIndex, ttlMs] = parsed as unknown[];
    if (typeof key !== 'string' || !Number.isInteger(channelId) || !Number.isInteger(keyIndex) || typeof ttlMs !== 'number') return;
    const now = this.now();
    this.hold(key, { channelId: channelId as number, keyIndex: keyIndex as number, expiresAt: now + ttlMs, sharedAt: now });
  }
}
