import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { loadCases } from './fixtures.js';
import { chatToCohereRequest } from './request.js';
import type { CohereChatRequest } from './types.js';

interface RequestCase {
  description: string;
  upstreamModel: string;
  stream: boolean;
  input: ChatRequest;
  expected: CohereChatRequest;
}

describe('ChatRequest -> Cohere v2 chat request', () => {
  const cases = loadCases<RequestCase>('request');
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (_file, fx) => {
    expect(chatToCohereRequest(fx.input, fx.upstreamModel, fx.stream), fx.description).toEqual(fx.expected);
  });

  it('leaves out REQUIRED when no tool is offered (Cohere refuses it without tools)', () => {
    const out = chatToCohereRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tool_choice: 'required' }, 'c', false);
    expect(out.tool_choice).toBeUndefined();
    expect(out.tools).toBeUndefined();
  });

  const rejects = (req: ChatRequest) => {
    try {
      chatToCohereRequest(req, 'c', false);
    } catch (err) {
      return err as RelayError;
    }
    throw new Error('expected a RelayError');
  };

  it('refuses content Cohere cannot take with a local 400', () => {
    const audio = rejects({ model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } }] }] });
    expect(audio).toBeInstanceOf(RelayError);
    expect(audio.status).toBe(400);
    expect(audio.local).toBe(true);
    expect(audio.message).toContain('input_audio');

    const systemImage = rejects({
      model: 'm',
      messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }],
    });
    expect(systemImage.status).toBe(400);
    expect(systemImage.message).toContain('system');

    const role = rejects({ model: 'm', messages: [{ role: 'function' as 'tool', content: 'x' }] });
    expect(role.status).toBe(400);
  });
});
