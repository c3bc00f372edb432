import { App as AntApp, ConfigProvider, theme } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from './auth';
import { StatusProvider } from './status';
import { ThemeModeProvider, useThemeMode } from './ThemeContext';
import { NotifierBridge } from './NotifierBridge';
import { AppRoutes } from './routes';
import { ANTD_LOCALE, LanguageBoundary, useLanguage } from './language';
import { useMediaQuery } from './useMediaQuery';

const queryClient = new QueryClient({
  defaultOptions: {
    // The API client already shows every failure; retrying would repeat the toast.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

function ThemedApp() {
  const { mode } = useThemeMode();
  const { language } = useLanguage();
  // A reader who asked their system for less motion gets none: popups, dialogs and drawers open and close at once.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  return (
    <ConfigProvider
      locale={ANTD_LOCALE[language]}
      // No space between two Chinese characters on buttons: '登录' stays '登录' for readers and tests.
      button={{ autoInsertSpace: false }}
      theme={{ algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { motion: !reducedMotion } }}
    >
      <AntApp>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <StatusProvider>
              <LanguageBoundary>
                <AppRoutes />
              </LanguageBoundary>
            </StatusProvider>
          </AuthProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    // The router sits outside antd's <App> so dialogs opened through App.useApp() can hold router links.
    <BrowserRouter>
      <ThemeModeProvider>
        <ThemedApp />
      </ThemeModeProvider>
    </BrowserRouter>
  );
}
