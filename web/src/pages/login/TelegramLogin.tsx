import type { LoginUser } from '@switchyard/shared';
import { api } from '../../api/client';
import { TelegramWidget, telegramQuery } from '../../components/TelegramWidget';
import { useOAuthLoginDone } from './useOAuthLogin';

/** Sign-in with Telegram: the widget's signed answer goes to the server, which checks it (bound accounts only). */
export function TelegramLogin({ botName }: { botName: string }) {
  const done = useOAuthLoginDone();
  return (
    <TelegramWidget
      botName={botName}
      onAuth={(data) => {
        api
          .get<LoginUser>('/api/oauth/telegram/login', telegramQuery(data))
          .then(done)
          .catch(() => undefined);
      }}
    />
  );
}
