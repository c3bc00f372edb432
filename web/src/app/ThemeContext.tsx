import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { applyThemeToDocument, readTheme, saveTheme, type ThemeMode } from './theme';

interface ThemeState {
  mode: ThemeMode;
  toggle(): void;
}

const ThemeContext = createContext<ThemeState | null>(null);

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(() => readTheme());
  const toggle = useCallback(() => {
    setMode((prev) => {
      const next: ThemeMode = prev === 'dark' ? 'light' : 'dark';
      saveTheme(next);
      applyThemeToDocument(next);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useThemeMode(): ThemeState {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useThemeMode outside ThemeModeProvider');
  return ctx;
}
