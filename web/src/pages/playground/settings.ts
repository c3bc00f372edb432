import { readJson, STORAGE_KEYS, writeJson } from '../../lib/storage';

/** The playground's settings (spec §3), kept in local storage across visits. */
export interface PlaygroundSettings {
  model: string;
  /** Empty: the user's own group. */
  group: string;
  /** 0: not sent, the model's own limit applies. */
  max_tokens: number;
  temperature: number;
  systemPrompt: string;
}

export const DEFAULT_SETTINGS: PlaygroundSettings = {
  model: 'gpt-4o-mini',
  group: '',
  max_tokens: 0,
  temperature: 0,
  systemPrompt: 'You are a helpful assistant. You can help me by answering my questions. You can also ask me questions.',
};

export const TEMPERATURE = { min: 0.1, max: 1, step: 0.1 } as const;

/** Stored settings over the defaults; a field of the wrong type (an older or edited entry) falls back. */
export function loadSettings(): PlaygroundSettings {
  const stored = readJson<Partial<Record<keyof PlaygroundSettings, unknown>>>(STORAGE_KEYS.playgroundSettings) ?? {};
  const pick = <K extends keyof PlaygroundSettings>(key: K): PlaygroundSettings[K] =>
    (typeof stored[key] === typeof DEFAULT_SETTINGS[key] ? stored[key] : DEFAULT_SETTINGS[key]) as PlaygroundSettings[K];
  const maxTokens = pick('max_tokens');
  const temperature = pick('temperature');
  return {
    model: pick('model') || DEFAULT_SETTINGS.model,
    group: pick('group'),
    max_tokens: Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : 0,
    temperature: Number.isFinite(temperature) && temperature >= 0 && temperature <= TEMPERATURE.max ? temperature : DEFAULT_SETTINGS.temperature,
    systemPrompt: pick('systemPrompt'),
  };
}

export function saveSettings(settings: PlaygroundSettings): void {
  writeJson(STORAGE_KEYS.playgroundSettings, settings);
}

/** The body of POST /pg/chat/completions (spec §7): max_tokens only when set, the system prompt first when given. */
export function requestBody(settings: PlaygroundSettings, turns: Array<{ role: string; content: string }>): Record<string, unknown> {
  const messages = settings.systemPrompt.trim() ? [{ role: 'system', content: settings.systemPrompt }, ...turns] : turns;
  return {
    messages,
    stream: true,
    model: settings.model,
    group: settings.group,
    ...(settings.max_tokens > 0 ? { max_tokens: settings.max_tokens } : {}),
    temperature: settings.temperature,
  };
}
