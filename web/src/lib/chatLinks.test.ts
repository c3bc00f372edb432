import { describe, expect, it } from 'vitest';
import { chatLinkList, fillChatLink, gatewayAddress, readChatLinks } from './chatLinks';

const NEXT = 'https://chat.example.com/#/?settings={"key":"{key}","url":"{address}"}';

describe('readChatLinks', () => {
  it('reads the Chats list in order, one target per name', () => {
    const links = readChatLinks({ chats: [{ NextChat: NEXT }, { AMA: 'ama://set-api-key?server={address}&key={key}' }] }, '聊天');
    expect(links).toEqual({
      kind: 'list',
      links: [
        { name: 'NextChat', template: NEXT },
        { name: 'AMA', template: 'ama://set-api-key?server={address}&key={key}' },
      ],
    });
  });
  it('accepts the list as a JSON string too', () => {
    expect(chatLinkList(readChatLinks({ chats: JSON.stringify([{ A: 'https://a/{key}' }]) as never }, '聊天'))).toEqual([
      { name: 'A', template: 'https://a/{key}' },
    ]);
  });
  it('calls anything that is not a list of {name: URL} bad', () => {
    for (const chats of ['[{', '{"A":"https://a"}', '["https://a"]', '[{"A":1}]', '[{"A":""}]', 42]) {
      expect(readChatLinks({ chats: chats as never }, '聊天'), String(chats)).toEqual({ kind: 'bad' });
    }
  });
  it('falls back to the single ChatLink, given the Next Web settings when it has no placeholders', () => {
    expect(readChatLinks({ chats: [], chat_link: 'https://next.example.com/' }, '聊天')).toEqual({
      kind: 'single',
      links: [{ name: '聊天', template: 'https://next.example.com/#/?settings={"key":"{key}","url":"{address}"}' }],
    });
    expect(chatLinkList(readChatLinks({ chats: [], chat_link: 'https://c.example.com/?k={key}' }, '聊天'))[0].template).toBe(
      'https://c.example.com/?k={key}',
    );
  });
  it('has nothing when neither is set', () => {
    expect(readChatLinks({ chats: [], chat_link: '' }, '聊天')).toEqual({ kind: 'none' });
    expect(readChatLinks({}, '聊天')).toEqual({ kind: 'none' });
    expect(chatLinkList({ kind: 'bad' })).toEqual([]);
  });
});

describe('filling a chat link', () => {
  it('puts sk- plus the key and the URL-encoded address into every placeholder', () => {
    expect(fillChatLink('x://a?server={address}&key={key}&again={key}', 'abc123', 'https://gw.example.com:8443')).toBe(
      'x://a?server=https%3A%2F%2Fgw.example.com%3A8443&key=sk-abc123&again=sk-abc123',
    );
  });
  it('uses the configured server address, else the page origin, without a trailing slash', () => {
    expect(gatewayAddress('https://api.example.com/', 'http://localhost:3000')).toBe('https://api.example.com');
    expect(gatewayAddress('', 'http://localhost:3000')).toBe('http://localhost:3000');
    expect(gatewayAddress(undefined, 'http://localhost:3000')).toBe('http://localhost:3000');
  });
});
