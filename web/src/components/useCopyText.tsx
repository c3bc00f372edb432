import { useCallback } from 'react';
import { App, Typography } from 'antd';
import { t } from '../lib/i18n';

/** Writes to the clipboard; false when the browser refuses (no permission, insecure origin). */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copy with feedback: a success toast ('已复制到剪贴板！' unless another notice is given), or a dialog showing the
 * text for manual copying when the clipboard is unavailable. Resolves true when copied automatically.
 */
export function useCopyText(): (text: string, successText?: string) => Promise<boolean> {
  const { message, modal } = App.useApp();
  return useCallback(
    async (text: string, successText?: string) => {
      if (await writeClipboard(text)) {
        void message.success(successText ?? t('已复制到剪贴板！'));
        return true;
      }
      modal.info({
        title: t('无法复制到剪贴板，请手动复制'),
        width: 560,
        content: (
          <Typography.Paragraph copyable={false} style={{ marginTop: 12 }}>
            <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>{text}</pre>
          </Typography.Paragraph>
        ),
        okText: t('关闭'),
      });
      return false;
    },
    [message, modal],
  );
}
