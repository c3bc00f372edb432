import { STORAGE_KEYS } from '../lib/storage';

export type ThemeMode = 'dark' | 'light';

/** The stored theme; without a choice, follow the operating system. */
export function readTheme(): ThemeMode {
  const stored = localStorage.getItem(STORAGE_KEYS.theme);
  if (stored === 'dark' || stored === 'light') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function saveTheme(mode: ThemeMode): void {
  localStorage.setItem(STORAGE_KEYS.theme, mode);
}

/**
 * Marks the document with the theme so the page background is right before React paints anything
 * (called synchronously in main.tsx, and on every toggle).
 */
export function applyThemeToDocument(mode: ThemeMode): void {
  const root = document.documentElement;
  root.dataset.theme = mode;
  root.style.colorScheme = mode;
  root.style.backgroundColor = mode === 'dark' ? '#000000' : '#f5f5f5';
}
