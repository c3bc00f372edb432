import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../formats/openai/chat.js';
import { chatToPalmRequest } from './request.js';
import { PalmWholeAnswerDecoder, palmToChatCompletion } from './response.js';
import type { PalmAnswer } from './types.js';
import { palmWire } from './wire.js';

const body = (route: string, name: string) => JSON.stringify((JSON.parse(readFileSync(new URL(`./fixtures/${route}/${name}`, import.meta.url), 'utf8')) as { body: unknown }).body);

describe('PaLM generateMessage', () => {
  it('sends system turns as the context and joins consecutive turns of one side', () => {
    expect(
      chatToPalmRequest({
        model: 'chat-bison-001',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
          { role: 'user', content: [{ type: 'text', text: 'there' }] },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: 'how are you?' },
        ],
        temperature: 0.2,
        top_p: 0.9,
      }),
    ).toEqual({
      prompt: {
        context: 'Be brief.',
        messages: [
          { author: '0', content: 'hi\n\nthere' },
          { author: '1', content: 'Hello!' },
          { author: '0', content: 'how are you?' },
        ],
      },
      temperature: 0.2,
      topP: 0.9,
    });
  });

  it('reads the first candidate, and a filtered answer as content_filter', () => {
    expect(palmToChatCompletion(JSON.parse(body('generateMessage', 'default.json')) as PalmAnswer, 'chat-bison-001').choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: 'Hello from the PaLM mock.' },
      finish_reason: 'stop',
    });
    expect(palmToChatCompletion(JSON.parse(body('generateMessage', 'filtered.json')) as PalmAnswer, 'm').choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'content_filter' });
  });

  it('gives a streamed call the whole answer as chunks once it is complete, and nothing for a broken body', () => {
    const decoder = new PalmWholeAnswerDecoder('chat-bison-001');
    const bytes = Buffer.from(body('generateMessage', 'default.json'));
    const chunks: ChatChunk[] = [];
    for (let i = 0; i < bytes.length; i += 9) chunks.push(...decoder.push(bytes.subarray(i, i + 9)));
    expect(chunks).toEqual([]);
    chunks.push(...decoder.finish());
    expect(chunks.map((c) => [c.choices[0].delta.content, c.choices[0].finish_reason])).toEqual([
      ['Hello from the PaLM mock.', null],
      [undefined, 'stop'],
    ]);
    const broken = new PalmWholeAnswerDecoder('m');
    broken.push(bytes.subarray(0, 20));
    expect(broken.finish()).toEqual([]);
  });

  it('reads Google’s errors, a refused key as the channel’s', () => {
    expect(palmWire.parseError(400, body('errors', 'bad-key.json'))).toMatchObject({ message: 'API key not valid. Please pass a valid API key.', credentials: true });
    expect(palmWire.parseError(429, body('errors', 'rate-limit.json'))).toMatchObject({ message: 'Resource has been exhausted (e.g. check quota).' });
  });

  it('refuses what generateMessage cannot take', () => {
    const up = { call: { stream: false }, channel: { paramOverride: {} } } as never;
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    expect(() => palmWire.encode({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools }, up)).toThrow(/工具/);
    expect(() => palmWire.encode({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] }, up)).toThrow(/文本/);
  });
});
