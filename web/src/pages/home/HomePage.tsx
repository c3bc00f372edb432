import { theme } from 'antd';
import { PageLoading } from '../../app/PageLoading';
import { useStatus } from '../../app/status';
import { MarkdownContent } from '../../components/MarkdownContent';
import { t } from '../../lib/i18n';
import { webUrl } from '../../lib/safeUrl';
import { HomeHeader } from './HomeHeader';
import { useHomePageContent } from './useHomePageContent';
import { PORTAL_PAGE, usePortalHtml } from './usePortalHtml';
import { WelcomePage } from './WelcomePage';

const fullWindow = { position: 'fixed', inset: 0, width: '100%', height: '100%', border: 'none' } as const;

/**
 * The root path, without the console layout: the portal page when the server has one; else the administrator's
 * home page content (a page at an https:// address in a frame, or Markdown/HTML, sanitized); else a welcome.
 */
export default function HomePage() {
  const portal = usePortalHtml();
  const content = useHomePageContent(portal.isSuccess && !portal.data);
  if (portal.isPending) return <PageLoading />;
  if (portal.data) return <PortalFrame />;
  if (content.isPending) return <PageLoading />;
  const text = content.data ?? '';
  if (text === '') return <WelcomePage />;
  const page = text.startsWith('https://') ? webUrl(text) : null;
  if (page) return <iframe src={page} title={t('首页')} style={fullWindow} />;
  return <HomeMarkdown source={text} />;
}

/**
 * The portal runs in a sandboxed frame: its own scripts are allowed, but it has no access to the console's storage
 * or session; its links may navigate the top window. It is loaded from its own address, not written in with srcdoc:
 * a srcdoc page would live under the console's Content-Security-Policy, which refuses the portal's inline scripts.
 */
function PortalFrame() {
  const { status } = useStatus();
  return (
    <iframe
      src={PORTAL_PAGE}
      title={status.system_name || 'Switchyard'}
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation allow-forms"
      style={fullWindow}
    />
  );
}

function HomeMarkdown({ source }: { source: string }) {
  const { token } = theme.useToken();
  return (
    <div style={{ minHeight: '100vh', background: token.colorBgContainer }}>
      <HomeHeader />
      <main style={{ maxWidth: 1040, margin: '0 auto', padding: '32px 24px' }}>
        <MarkdownContent source={source} />
      </main>
    </div>
  );
}
