import { useEffect } from 'react';
import { App } from 'antd';
import { installNotifier } from '../lib/notify';

/** Routes toasts raised outside React (the API client) to antd's message API of the enclosing <App>. */
export function NotifierBridge() {
  const { message } = App.useApp();
  useEffect(() => {
    installNotifier({
      success: (text) => void message.success(text),
      error: (text) => void message.error(text),
      info: (text) => void message.info(text),
      warning: (text) => void message.warning(text),
    });
  }, [message]);
  return null;
}
