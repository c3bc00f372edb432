import { describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../cache/routing.js';
import type { OptionReader } from '../options/index.js';
import { prepareAttempt } from './attempt.js';
import { RelayError } from './errors.js';
import { claudeProvider } from './providers/claude/provider.js';
import { isOwnFailure } from './routes/endpoint.js';
import type { Attempt, ClientCall } from './types.js';

describe('preparing an attempt', () => {
  it('answers a conversion that breaks with a 400 free of JavaScript text, and keeps the failure to be logged', () => {
    // A body shape the body check would refuse (a function tool without its function), handed straight in.
    const call: ClientCall = {
      format: 'openai',
      mode: 'chat',
      model: 'claude-x',
      stream: false,
      json: { model: 'claude-x', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function' }] },
      clientWantsStreamUsage: false,
      maxTokens: 0,
    };
    const options = { get: () => ({}) } as unknown as OptionReader;
    const attempt: Attempt = { call, channel: { type: 14 } as RoutedChannel, upstreamModel: 'claude-x', key: 'k', options };
    let thrown: unknown;
    try {
      prepareAttempt(claudeProvider, attempt);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RelayError);
    expect(thrown).toMatchObject({ status: 400, code: 'convert_request_failed', message: '请求无法转换为上游格式' });
    expect((thrown as Error).cause).toBeInstanceOf(TypeError);
    expect(isOwnFailure(thrown)).toBe(true);
  });
});
