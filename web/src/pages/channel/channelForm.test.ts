import { describe, expect, it } from 'vitest';
import type { ChannelDto } from '../../api/channel';
import {
  addCustomModels,
  channelToValues,
  copyOf,
  firstKey,
  fixResultText,
  newChannelValues,
  toChannelInput,
  validateChannel,
  type ChannelFormValues,
} from './channelForm';
import { parseOtherInfo, responseTimeColor, responseTimeText, splitList } from './health';

const values = (change: Partial<ChannelFormValues>): ChannelFormValues => ({
  ...newChannelValues(),
  name: 'a',
  key: 'k',
  models: ['gpt-4o'],
  ...change,
});

describe('a new channel', () => {
  it('defaults to type 1, auto-ban on and group default', () => {
    const v = newChannelValues();
    expect(v.type).toBe(1);
    expect(v.auto_ban).toBe(true);
    expect(v.groups).toEqual(['default']);
    expect(toChannelInput(v)).toMatchObject({ type: 1, auto_ban: 1, group: 'default' });
  });
});

describe('validateChannel', () => {
  it('needs name and key when creating, not when editing', () => {
    expect(validateChannel(values({ name: ' ' }), false)).toBe('请填写渠道名称和渠道密钥！');
    expect(validateChannel(values({ key: '' }), false)).toBe('请填写渠道名称和渠道密钥！');
    expect(validateChannel(values({ key: '' }), true)).toBeNull();
  });
  it('needs at least one model', () => {
    expect(validateChannel(values({ models: [] }), false)).toBe('请至少选择一个模型！');
  });
  it('needs JSON model and status code mappings', () => {
    expect(validateChannel(values({ model_mapping: '{bad' }), false)).toBe('模型映射必须是合法的 JSON 格式！');
    expect(validateChannel(values({ model_mapping: '{"a":"b"}' }), false)).toBeNull();
    expect(validateChannel(values({ status_code_mapping: '[1]' }), false)).not.toBeNull();
  });
  it('needs a Vertex region, a JSON map of regions having default', () => {
    expect(validateChannel(values({ type: 41, other: '' }), false)).not.toBeNull();
    expect(validateChannel(values({ type: 41, other: 'us-central1' }), false)).toBeNull();
    expect(validateChannel(values({ type: 41, other: '{"x":"y"}' }), false)).not.toBeNull();
    expect(validateChannel(values({ type: 41, other: '{"default":"us-central1"}' }), false)).toBeNull();
  });
});

describe('toChannelInput', () => {
  it('joins lists, strips the trailing slash and fills type defaults of other', () => {
    const input = toChannelInput(values({ base_url: 'https://x.example/v1/', models: ['a', 'b'], groups: ['default', 'vip'] }));
    expect(input.base_url).toBe('https://x.example/v1');
    expect(input.models).toBe('a,b');
    expect(input.group).toBe('default,vip');
    expect(toChannelInput(values({ type: 3 })).other).toBe('2024-06-01-preview');
    expect(toChannelInput(values({ type: 18 })).other).toBe('v2.1');
    expect(toChannelInput(values({ type: 3, other: '2025-01-01' })).other).toBe('2025-01-01');
  });
  it('sends the organization only for OpenAI channels', () => {
    expect(toChannelInput(values({ type: 14, openai_organization: 'org-1' })).openai_organization).toBe('');
    expect(toChannelInput(values({ type: 1, openai_organization: 'org-1' })).openai_organization).toBe('org-1');
  });
});

describe('helpers', () => {
  const channel: ChannelDto = {
    id: 7,
    name: 'c',
    type: 1,
    key: 'sk-1',
    openai_organization: '',
    base_url: '',
    other: '',
    model_mapping: '',
    status_code_mapping: '',
    models: 'a,b',
    group: 'default,vip',
    auto_ban: 0,
    test_model: '',
    status: 3,
    response_time: 1200,
    used_quota: 9,
    balance: 3,
    priority: 5,
    weight: 2,
    other_info: '{"status_reason":"401","status_time":1700000000}',
    test_time: 1,
    balance_updated_time: 1,
    created_time: 1,
    max_input_tokens: 0,
    tag: 't',
    setting: '',
    param_override: '',
  };
  it('copies a channel under name_复制 without id, status or statistics', () => {
    const copy = copyOf(channel);
    expect(copy.name).toBe('c_复制');
    expect(copy).not.toHaveProperty('id');
    expect(copy).not.toHaveProperty('status');
    expect(copy).not.toHaveProperty('used_quota');
    expect(copy).toMatchObject({ key: 'sk-1', models: 'a,b', priority: 5, weight: 2, auto_ban: 0, tag: 't' });
  });
  it('reads a channel into the form', () => {
    expect(channelToValues(channel)).toMatchObject({ models: ['a', 'b'], groups: ['default', 'vip'], auto_ban: false });
  });
  it('adds custom models and reports duplicates', () => {
    expect(addCustomModels(['a'], 'b, c ,,')).toEqual({ models: ['a', 'b', 'c'], duplicates: false });
    expect(addCustomModels(['a'], 'a,b')).toEqual({ models: ['a', 'b'], duplicates: true });
  });
  it('takes the first non-blank key line', () => {
    expect(firstKey('\n sk-1 \nsk-2')).toBe('sk-1');
    expect(firstKey('  ')).toBe('');
  });
  it('describes fix results', () => {
    expect(fixResultText(2)).toBe('已修复 2 个通道');
  });
  it('colours response times and reads other_info', () => {
    expect([1000, 1001, 3000, 5000, 5001].map(responseTimeColor)).toEqual(['green', 'lime', 'lime', 'yellow', 'red']);
    expect(responseTimeText(1530)).toBe('1.53 秒');
    expect(parseOtherInfo(channel.other_info)).toEqual({ status_reason: '401', status_time: 1700000000 });
    expect(parseOtherInfo('oops')).toEqual({});
    expect(splitList(' a, ,b ')).toEqual(['a', 'b']);
  });
});
