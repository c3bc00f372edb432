import { useEffect, useId, useRef } from 'react';

/** What Telegram's login widget hands the page: the account's fields and Telegram's signature over them. */
export interface TelegramAuthData {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number;
  hash: string;
}

export const TELEGRAM_WIDGET_SRC = 'https://telegram.org/js/telegram-widget.js?22';

/** The fields as query parameters, exactly as signed (nothing added: an extra field would break the signature). */
export function telegramQuery(data: TelegramAuthData): Record<string, string | number | undefined> {
  return { ...data };
}

/**
 * Telegram's login widget for the configured bot. The widget calls a global function by name, so each instance
 * registers its own and removes it when it goes.
 */
export function TelegramWidget({ botName, onAuth }: { botName: string; onAuth(data: TelegramAuthData): void }) {
  const box = useRef<HTMLDivElement>(null);
  const callback = `onTelegramAuth_${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const onAuthRef = useRef(onAuth);
  useEffect(() => {
    onAuthRef.current = onAuth;
  });
  useEffect(() => {
    const el = box.current;
    if (!el || !botName) return;
    const slots = window as unknown as Record<string, unknown>;
    slots[callback] = (data: TelegramAuthData) => onAuthRef.current(data);
    const script = document.createElement('script');
    script.src = TELEGRAM_WIDGET_SRC;
    script.async = true;
    script.dataset.telegramLogin = botName;
    script.dataset.size = 'large';
    script.dataset.onauth = `${callback}(user)`;
    script.dataset.requestAccess = 'write';
    el.appendChild(script);
    return () => {
      el.replaceChildren();
      delete slots[callback];
    };
  }, [botName, callback]);
  return <div ref={box} style={{ display: 'flex', justifyContent: 'center' }} />;
}
