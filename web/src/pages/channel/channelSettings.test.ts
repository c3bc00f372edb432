import { describe, expect, it } from 'vitest';
import type { ChannelDto } from '../../api/channel';
import { attributionDefaults, mergeSetting, paramOverrideProblem, proxyProblem, refererProblem, settingFields, titleProblem } from './channelSettings';
import { tagEditOf } from './TagEditModal';
import { tagRows } from './tagRows';

describe('per-channel settings in the drawer', () => {
  const none = { proxy: '', system_prompt: '', system_prompt_override: false, http_referer: '', x_title: '' };

  it('reads proxy and system prompt out of setting and writes them back, keeping other keys', () => {
    const stored = JSON.stringify({ force_format: true, proxy: 'http://old:1' });
    expect(settingFields(stored)).toEqual({ ...none, proxy: 'http://old:1' });
    expect(settingFields('{broken')).toEqual(none);
    const merged = mergeSetting(stored, { ...none, proxy: ' socks5://127.0.0.1:1080 ', system_prompt: '你好', system_prompt_override: true });
    expect(JSON.parse(merged)).toEqual({ force_format: true, proxy: 'socks5://127.0.0.1:1080', system_prompt: '你好', system_prompt_override: true });
    expect(mergeSetting(JSON.stringify({ proxy: 'http://x:1' }), { ...none, system_prompt: ' ' })).toBe('');
  });

  it('keeps OpenRouter’s app address and name in setting, blank ones left out', () => {
    const stored = JSON.stringify({ proxy: 'http://p:1', http_referer: 'https://old.example', x_title: 'Old' });
    expect(settingFields(stored)).toMatchObject({ http_referer: 'https://old.example', x_title: 'Old' });
    const merged = mergeSetting(stored, { ...none, proxy: 'http://p:1', http_referer: ' https://chat.example.org ', x_title: ' Night Owl ' });
    expect(JSON.parse(merged)).toEqual({ proxy: 'http://p:1', http_referer: 'https://chat.example.org', x_title: 'Night Owl' });
    expect(JSON.parse(mergeSetting(stored, { ...none, proxy: 'http://p:1' }))).toEqual({ proxy: 'http://p:1' });
  });

  it('names what is wrong with an app address or name, and starts a new channel with this console’s', () => {
    expect(refererProblem('')).toBeNull();
    expect(refererProblem('https://chat.example.org/x')).toBeNull();
    expect(refererProblem('chat.example.org')).toMatch(/^应用地址无效/);
    expect(refererProblem('javascript:alert(1)')).toMatch(/^应用地址无效/);
    expect(titleProblem('Night Owl Chat')).toBeNull();
    expect(titleProblem('夜猫子')).toMatch(/^应用名称只能包含/);
    expect(titleProblem('a\r\nb')).toMatch(/^应用名称只能包含/);
    expect(attributionDefaults('https://gw.example.com', 'Switchyard')).toEqual({ http_referer: 'https://gw.example.com', x_title: 'Switchyard' });
    // A system name that cannot be sent is not offered.
    expect(attributionDefaults('http://localhost:3000', '我的网关')).toEqual({ http_referer: 'http://localhost:3000', x_title: '' });
  });

  it('names what is wrong with a param_override or a proxy', () => {
    expect(paramOverrideProblem('{"temperature":0.1}')).toBeNull();
    expect(paramOverrideProblem('{bad')).toBe('参数覆盖必须是合法的 JSON 格式！');
    expect(paramOverrideProblem('[1]')).toBe('参数覆盖必须是 JSON 对象，例如 {"temperature": 0.5}');
    expect(paramOverrideProblem('{"stream":false}')).toMatch(/^参数覆盖不能设置 stream/);
    expect(proxyProblem('')).toBeNull();
    expect(proxyProblem('socks5://user:pw@127.0.0.1:1080')).toBeNull();
    expect(proxyProblem('127.0.0.1:8080')).toMatch(/^代理地址无效/);
    expect(proxyProblem('ftp://x')).toMatch(/^代理地址无效/);
  });
});

describe('tag mode', () => {
  const ch = (id: number, tag: string, status: number, priority: number) => ({ id, tag, status, priority, weight: 1, used_quota: 10 }) as ChannelDto;

  it('groups the listed channels into one row per tag', () => {
    const rows = tagRows([ch(1, 'a', 1, 5), ch(2, 'a', 2, 3), ch(3, 'b', 1, 0)]);
    expect(rows.map((r) => [r.tag, r.channels.map((c) => c.id), r.enabled, r.priority, r.weight, r.usedQuota])).toEqual([
      ['a', [1, 2], 1, null, 1, 20],
      ['b', [3], 1, 0, 1, 10],
    ]);
  });

  it('sends only the fields filled in an edit by tag', () => {
    const blank = { new_tag: 'a', priority: null, weight: null, models: '', groups: [], model_mapping: '', param_override: '' };
    expect(tagEditOf('a', blank)).toEqual({ tag: 'a' });
    expect(tagEditOf('a', { ...blank, new_tag: 'b', priority: 0, models: 'x, y,', groups: ['vip'], param_override: '{"top_p":1}' })).toEqual({
      tag: 'a',
      new_tag: 'b',
      priority: 0,
      models: 'x,y',
      groups: 'vip',
      param_override: '{"top_p":1}',
    });
  });
});
