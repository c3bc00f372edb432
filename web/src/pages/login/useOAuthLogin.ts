import type { Envelope, LoginUser } from '@switchyard/shared';
import { useSignedIn } from './useLogin';

/** After a WeChat or Telegram sign-in: the user goes to the root (spec §2). False when the server refused. */
export function useOAuthLoginDone(): (res: Envelope<LoginUser>) => boolean {
  const signedIn = useSignedIn();
  return (res) => {
    if (!res.success || !res.data) return false;
    signedIn(res.data, '/');
    return true;
  };
}
