import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';
import { STORAGE_KEYS } from './storage';

/**
 * Translation seam over i18next. Keys are the Chinese strings of the spec, so Chinese needs no catalogue: a key
 * without an entry is shown as it is. `{name}` placeholders are filled from vars by this module, not by i18next:
 * many texts hold literal braces (JSON examples such as `{"vip": 0.5}`, or `{key}` explained to the operator) that
 * i18next's interpolation would try to read as variables.
 */
export type Language = 'zh' | 'en';
export const LANGUAGES: readonly Language[] = ['zh', 'en'];

/** The stored choice wins; otherwise the first of Chinese or English the browser lists, Chinese when it lists neither. */
export function preferredLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (stored === 'zh' || stored === 'en') return stored;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (lower === 'zh' || lower.startsWith('zh-')) return 'zh';
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
  }
  return 'zh';
}

function initialLanguage(): Language {
  if (typeof window === 'undefined') return 'zh';
  const browser = navigator.languages?.length ? navigator.languages : [navigator.language];
  return preferredLanguage(localStorage.getItem(STORAGE_KEYS.language), browser);
}

void i18next.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: false,
  resources: { en: { translation: en } },
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
});

export const i18n = i18next;

export function t(key: string, vars?: Record<string, string | number>): string {
  let text = i18next.t(key, { skipInterpolation: true, defaultValue: key });
  if (vars) {
    for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
  }
  return text;
}

export const currentLanguage = (): Language => (i18next.language === 'en' ? 'en' : 'zh');

/** Switches the console language and remembers it; components re-render through LanguageBoundary. */
export function setLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEYS.language, language);
  void i18next.changeLanguage(language);
}
