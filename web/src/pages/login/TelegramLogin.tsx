import { useEffect, useRef } from 'react';
import type { LoginUser } from '@switchyard/shared';
import { api } from '../../api/client';
import { useOAuthLoginDone } from './useOAuthLogin';

interface TelegramUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number;
  hash: string;
}

declare global {
  interface Window {
    onTelegramAuth?: (user: TelegramUser) => void;
  }
}

/** Telegram's login widget for the configured bot; its answer is checked by the server. */
export function TelegramLogin({ botName }: { botName: string }) {
  const box = useRef<HTMLDivElement>(null);
  const done = useOAuthLoginDone();
  const doneRef = useRef(done);
  useEffect(() => {
    doneRef.current = done;
  });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    window.onTelegramAuth = (user) => {
      const query: Record<string, string | number> = { ...user, lang: navigator.language };
      api
        .get<LoginUser>('/api/oauth/telegram/login', query)
        .then((res) => doneRef.current(res))
        .catch(() => undefined);
    };
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.dataset.telegramLogin = botName;
    script.dataset.size = 'large';
    script.dataset.onauth = 'onTelegramAuth(user)';
    script.dataset.requestAccess = 'write';
    el.appendChild(script);
    return () => {
      el.replaceChildren();
      delete window.onTelegramAuth;
    };
  }, [botName]);
  return <div ref={box} style={{ display: 'flex', justifyContent: 'center' }} />;
}
