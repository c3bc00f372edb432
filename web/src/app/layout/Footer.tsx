import { useEffect, useState } from 'react';
import { Layout, Typography } from 'antd';
import { useStatus } from '../status';
import { STORAGE_KEYS } from '../../lib/storage';
import { SanitizedHtml } from '../../components/SanitizedHtml';
import { t } from '../../lib/i18n';

const REREAD_TIMES = 5;
const REREAD_INTERVAL_MS = 200;

/**
 * The custom footer HTML (sanitized), or a default line. The stored copy may arrive just after first render
 * (the status request is in flight), so it is re-read a few times (spec §9).
 */
export function Footer() {
  const { status } = useStatus();
  const [stored, setStored] = useState(() => localStorage.getItem(STORAGE_KEYS.footerHtml) ?? '');
  useEffect(() => {
    let reads = 0;
    const timer = window.setInterval(() => {
      reads += 1;
      setStored(localStorage.getItem(STORAGE_KEYS.footerHtml) ?? '');
      if (reads >= REREAD_TIMES) window.clearInterval(timer);
    }, REREAD_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
  const html = status.footer_html || stored;
  const systemName = status.system_name || 'Switchyard';
  return (
    <Layout.Footer style={{ textAlign: 'center', padding: '16px 24px' }}>
      {html ? (
        <SanitizedHtml html={html} />
      ) : (
        <Typography.Text type="secondary">
          {t('{name} © {year} · AI 接口网关', { name: systemName, year: new Date().getFullYear() })}
        </Typography.Text>
      )}
    </Layout.Footer>
  );
}
