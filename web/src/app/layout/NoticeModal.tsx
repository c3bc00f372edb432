import { useEffect, useState } from 'react';
import { Button, Modal } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../auth';
import { fetchSiteText } from '../../api/siteContent';
import { MarkdownContent } from '../../components/MarkdownContent';
import { STORAGE_KEYS } from '../../lib/storage';
import { t } from '../../lib/i18n';

/** A short fingerprint of the notice text (FNV-1a), so local storage remembers which notice was read, not its text. */
export function noticeFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${text.length}-${hash.toString(16)}`;
}

/**
 * Shows the system notice to a signed-in user once per notice: after sign-in or on load, until it is closed; a
 * changed notice shows again.
 */
export function NoticeModal() {
  const { user } = useAuth();
  const notice = useQuery({ queryKey: ['notice', user?.id], queryFn: () => fetchSiteText('/api/notice'), enabled: Boolean(user), staleTime: 60_000 });
  const [open, setOpen] = useState(false);
  const text = notice.data ?? '';

  useEffect(() => {
    if (user && text !== '' && localStorage.getItem(STORAGE_KEYS.noticeSeen) !== noticeFingerprint(text)) setOpen(true);
  }, [user, text]);

  const close = () => {
    localStorage.setItem(STORAGE_KEYS.noticeSeen, noticeFingerprint(text));
    setOpen(false);
  };

  return (
    <Modal
      open={open && Boolean(user)}
      title={t('系统公告')}
      onCancel={close}
      footer={
        <Button type="primary" onClick={close}>
          {t('关闭公告')}
        </Button>
      }
    >
      <MarkdownContent source={text} />
    </Modal>
  );
}
