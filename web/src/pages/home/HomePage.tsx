import { PageLoading } from '../../app/PageLoading';
import { usePortalHtml } from './usePortalHtml';
import { PortalFallback } from './PortalFallback';
import { useStatus } from '../../app/status';

/**
 * The root path: only the portal page, full window, no console layout. It runs in a sandboxed frame (its own
 * scripts allowed, no access to the console's storage or session); its links may navigate the top window.
 */
export default function HomePage() {
  const { data: html, isPending } = usePortalHtml();
  const { status } = useStatus();
  if (isPending) return <PageLoading />;
  if (!html) return <PortalFallback />;
  return (
    <iframe
      srcDoc={html}
      title={status.system_name || 'Switchyard'}
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation allow-forms"
      style={{ position: 'fixed', inset: 0, width: '100%', height: '100%', border: 'none' }}
    />
  );
}
