/** Toasts from outside React components (the API client). The app shell installs antd's message API on mount. */
export interface Notifier {
  success(text: string): void;
  error(text: string): void;
  info(text: string): void;
  warning(text: string): void;
}

const fallback: Notifier = {
  success: (t) => console.info(t),
  error: (t) => console.error(t),
  info: (t) => console.info(t),
  warning: (t) => console.warn(t),
};

let current: Notifier = fallback;

export function installNotifier(n: Notifier): void {
  current = n;
}

export const notify: Notifier = {
  success: (t) => current.success(t),
  error: (t) => current.error(t),
  info: (t) => current.info(t),
  warning: (t) => current.warning(t),
};
