import { describe, expect, it } from 'vitest';
import type { Bus, BusHandler } from '../cache/bus.js';
import { SessionAffinity, sessionOf } from './session-affinity.js';
import type { ClientCall } from './types.js';

const call = (format: ClientCall['format'], json: Record<string, unknown>): ClientCall =>
  ({ format, mode: 'chat', model: 'm', stream: false, json, clientWantsStreamUsage: false, maxTokens: 0 }) as ClientCall;

/** Buses of several workers joined together: what one publishes, the others hear. */
function joinedBuses(n: number): Bus[] {
  const handlers: Array<Map<string, BusHandler>> = Array.from({ length: n }, () => new Map());
  return handlers.map((own, i) => ({
    nodeId: `w${i}`,
    async publish(topic: string, message: string) {
      for (const [j, other] of handlers.entries()) if (j !== i) await other.get(topic)?.(message);
    },
    subscribe(topic: string, handler: BusHandler) {
      own.set(topic, handler);
    },
    async close() {},
  }));
}

describe('the session a call belongs to', () => {
  it('is Claude Code’s session id, from its header or from metadata.user_id (JSON or the older user_…_session_ form)', () => {
    const meta = (user_id: string) => ({ metadata: { user_id } });
    expect(sessionOf(call('claude', {}), { 'x-claude-code-session-id': 'h-1' })).toBe('h-1');
    expect(sessionOf(call('claude', meta(JSON.stringify({ device_id: 'd', session_id: 's-1' }))), {})).toBe('s-1');
    expect(sessionOf(call('claude', meta('user_abc_account__session_0b1c-22')), {})).toBe('0b1c-22');
    expect(sessionOf(call('claude', meta('someone')), {})).toBe('someone');
    expect(sessionOf(call('claude', {}), {})).toBeNull();
  });

  it('is Codex’s prompt_cache_key or session header in Responses, prompt_cache_key, opencode’s session header or user in chat', () => {
    expect(sessionOf(call('responses', { prompt_cache_key: 'k' }), { session_id: 'h' })).toBe('k');
    expect(sessionOf(call('responses', {}), { session_id: 'h' })).toBe('h');
    expect(sessionOf(call('openai', { user: 'u' }), {})).toBe('u');
    expect(sessionOf(call('openai', { prompt_cache_key: 'k', user: 'u' }), {})).toBe('k');
    expect(sessionOf(call('openai', { user: 'x'.repeat(300) }), {})).toBeNull();
    expect(sessionOf(call('openai', { user: 'u' }), { 'x-session-affinity': 'ses_1', 'x-session-id': 'ses_1' })).toBe('ses_1');
    expect(sessionOf(call('openai', {}), { 'x-session-id': 'ses_2' })).toBe('ses_2');
    expect(sessionOf(call('gemini', { user: 'u' }), {})).toBeNull();
  });
});

describe('SessionAffinity', () => {
  it('holds a session for its lifetime, then forgets it', () => {
    let now = 1_000;
    const [bus] = joinedBuses(1);
    const affinity = new SessionAffinity(bus, () => now);
    affinity.remember('s', 7, 2, 60_000);
    expect(affinity.lookup('s')).toMatchObject({ channelId: 7, keyIndex: 2 });
    now += 59_999;
    expect(affinity.lookup('s')).not.toBeNull();
    now += 1;
    expect(affinity.lookup('s')).toBeNull();
  });

  it('tells the other workers where a new or moved session goes, and keeps an unchanged one quiet until half its lifetime', () => {
    let now = 0;
    const buses = joinedBuses(2);
    let messages = 0;
    const counted = { ...buses[0], publish: (topic: string, message: string) => (messages++, buses[0].publish(topic, message)) };
    const here = new SessionAffinity(counted, () => now);
    const there = new SessionAffinity(buses[1], () => now);
    here.remember('s', 7, 2, 60_000);
    expect(there.lookup('s')).toMatchObject({ channelId: 7, keyIndex: 2 });
    now = 29_000;
    here.remember('s', 7, 2, 60_000);
    expect(messages).toBe(1);
    now = 31_000;
    here.remember('s', 7, 2, 60_000);
    expect(messages).toBe(2);
    here.remember('s', 8, -1, 60_000);
    expect(messages).toBe(3);
    expect(there.lookup('s')).toMatchObject({ channelId: 8, keyIndex: -1 });
  });

  it('ignores a message it cannot read', () => {
    const buses = joinedBuses(2);
    const there = new SessionAffinity(buses[1]);
    void buses[0].publish('session-affinity', 'not json');
    void buses[0].publish('session-affinity', JSON.stringify(['s', 'seven', 0, 1000]));
    expect(there.size).toBe(0);
  });
});
