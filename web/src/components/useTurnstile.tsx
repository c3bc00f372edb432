import { useState, type ReactNode } from 'react';
import { useStatus } from '../app/status';
import { Turnstile } from './Turnstile';

export const TURNSTILE_WAIT = '请稍后几秒重试，Turnstile 正在检查用户环境！';

export interface TurnstileState {
  /** The token to send as `?turnstile=` ('' while the captcha is off or not solved yet). */
  token: string;
  /** False while the captcha is on and has no token yet: buttons that need it wait. */
  ready: boolean;
  /** The widget to place in the form (null when the captcha is off). */
  widget: ReactNode;
}

/** The Turnstile captcha of a form, when the server turns it on. */
export function useTurnstile(): TurnstileState {
  const { status } = useStatus();
  const [token, setToken] = useState('');
  const siteKey = status.turnstile_check ? status.turnstile_site_key : '';
  if (!siteKey) return { token: '', ready: true, widget: null };
  return { token, ready: token !== '', widget: <Turnstile siteKey={siteKey} onToken={setToken} /> };
}
