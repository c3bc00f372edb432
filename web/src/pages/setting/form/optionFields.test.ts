import { describe, expect, it } from 'vitest';
import { checkJson } from './jsonShapes';
import { fieldValues, optionsToSave, type OptionField } from './optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'GitHubOAuthEnabled', kind: 'switch', label: 'on' },
  { key: 'GitHubClientId', kind: 'text', label: 'id' },
  { key: 'GitHubClientSecret', kind: 'secret', label: 'secret' },
  { key: 'RetryTimes', kind: 'number', min: 0, label: 'retries' },
  { key: 'SensitiveWords', kind: 'lines', label: 'words' },
  { key: 'EmailDomainWhitelist', kind: 'tags', label: 'domains' },
  { key: 'GroupRatio', kind: 'json', shape: 'numberMap', label: 'ratios' },
];

const STORED = {
  GitHubOAuthEnabled: 'false',
  GitHubClientId: 'abc',
  RetryTimes: '2',
  SensitiveWords: 'a\nb',
  EmailDomainWhitelist: 'gmail.com,qq.com',
  GroupRatio: '{"default": 1, "vip": 0.5}',
};

describe('option fields', () => {
  it('loads stored strings as form values, secrets blank and JSON indented', () => {
    expect(fieldValues(FIELDS, STORED)).toEqual({
      GitHubOAuthEnabled: false,
      GitHubClientId: 'abc',
      GitHubClientSecret: '',
      RetryTimes: 2,
      SensitiveWords: 'a\nb',
      EmailDomainWhitelist: ['gmail.com', 'qq.com'],
      GroupRatio: '{\n  "default": 1,\n  "vip": 0.5\n}',
    });
  });

  it('gives back the stored strings for an untouched form (so nothing counts as changed)', () => {
    expect(optionsToSave(FIELDS, fieldValues(FIELDS, STORED), STORED)).toEqual(STORED);
  });

  it('writes switches last, leaves a blank secret out, trims lists and compacts changed JSON', () => {
    const values = {
      ...fieldValues(FIELDS, STORED),
      GitHubOAuthEnabled: true,
      GitHubClientId: '  new-id ',
      SensitiveWords: ' x \n\n y\nx\n',
      EmailDomainWhitelist: ['example.com', ' example.com ', ''],
      GroupRatio: '{ "default": 1, "vip": 0.8 }',
    };
    const next = optionsToSave(FIELDS, values, STORED);
    expect(Object.keys(next)).toEqual(['GitHubClientId', 'RetryTimes', 'SensitiveWords', 'EmailDomainWhitelist', 'GroupRatio', 'GitHubOAuthEnabled']);
    expect(next).toMatchObject({
      GitHubOAuthEnabled: 'true',
      GitHubClientId: 'new-id',
      SensitiveWords: 'x\ny',
      EmailDomainWhitelist: 'example.com',
      GroupRatio: '{"default":1,"vip":0.8}',
    });
    expect(optionsToSave(FIELDS, { ...values, GitHubClientSecret: ' s3cret ' }, STORED).GitHubClientSecret).toBe('s3cret');
  });

  it('tells a JSON syntax error from a wrong shape', () => {
    expect(checkJson('{"a": 1', 'numberMap')).toEqual({ ok: false, reason: 'syntax' });
    expect(checkJson('{"a": -1}', 'numberMap')).toEqual({ ok: false, reason: 'shape' });
    expect(checkJson('{"a": "1"}', 'numberMap')).toEqual({ ok: false, reason: 'shape' });
    expect(checkJson('{"a": "A"}', 'stringMap').ok).toBe(true);
    expect(checkJson('[{"n": "https://x/{key}"}]', 'chatList').ok).toBe(true);
    expect(checkJson('[{}]', 'chatList')).toEqual({ ok: false, reason: 'shape' });
    expect(checkJson('{"n": "x"}', 'chatList')).toEqual({ ok: false, reason: 'shape' });
  });
});
