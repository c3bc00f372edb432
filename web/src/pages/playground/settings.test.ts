import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings, requestBody, saveSettings } from './settings';

// A minimal localStorage (the unit tests run in Node).
const store = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  },
});

describe('playground settings', () => {
  beforeEach(() => store.clear());

  it('starts from the spec defaults: gpt-4o-mini, own group, max_tokens 0, temperature 0, a helpful-assistant prompt', () => {
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({ model: 'gpt-4o-mini', group: '', max_tokens: 0, temperature: 0 });
    expect(DEFAULT_SETTINGS.systemPrompt).toContain('helpful assistant');
  });

  it('keeps what was saved and falls back field by field on what is broken', () => {
    saveSettings({ model: 'claude-3-haiku', group: 'vip', max_tokens: 256, temperature: 0.7, systemPrompt: '' });
    expect(loadSettings()).toEqual({ model: 'claude-3-haiku', group: 'vip', max_tokens: 256, temperature: 0.7, systemPrompt: '' });
    store.set('playground_settings', JSON.stringify({ model: 5, group: 'vip', max_tokens: -3, temperature: 9 }));
    expect(loadSettings()).toEqual({ ...DEFAULT_SETTINGS, group: 'vip' });
    store.set('playground_settings', '{not json');
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('sends max_tokens only when set, and the system prompt first when there is one', () => {
    const turns = [{ role: 'user', content: 'hi' }];
    expect(requestBody({ ...DEFAULT_SETTINGS, systemPrompt: '  ' }, turns)).toEqual({ messages: turns, stream: true, model: 'gpt-4o-mini', group: '', temperature: 0 });
    expect(requestBody({ ...DEFAULT_SETTINGS, max_tokens: 100, group: 'vip' }, turns)).toEqual({
      messages: [{ role: 'system', content: DEFAULT_SETTINGS.systemPrompt }, ...turns],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'vip',
      max_tokens: 100,
      temperature: 0,
    });
  });
});
