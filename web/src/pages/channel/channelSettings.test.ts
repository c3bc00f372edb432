import { describe, expect, it } from 'vitest';
import type { ChannelDto } from '../../api/channel';
import { mergeSetting, paramOverrideProblem, proxyProblem, settingFields } from './channelSettings';
import { tagEditOf } from './TagEditModal';
import { tagRows } from './tagRows';

describe('per-channel settings in the drawer', () => {
  it('reads proxy and system prompt out of setting and writes them back, keeping other keys', () => {
    const stored = JSON.stringify({ force_format: true, proxy: 'http://old:1' });
    expect(settingFields(stored)).toEqual({ proxy: 'http://old:1', system_prompt: '', system_prompt_override: false });
    expect(settingFields('{broken')).toEqual({ proxy: '', system_prompt: '', system_prompt_override: false });
    const merged = mergeSetting(stored, { proxy: ' socks5://127.0.0.1:1080 ', system_prompt: '你好', system_prompt_override: true });
    expect(JSON.parse(merged)).toEqual({ force_format: true, proxy: 'socks5://127.0.0.1:1080', system_prompt: '你好', system_prompt_override: true });
    expect(mergeSetting(JSON.stringify({ proxy: 'http://x:1' }), { proxy: '', system_prompt: ' ', system_prompt_override: false })).toBe('');
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
