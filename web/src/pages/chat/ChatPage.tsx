import { Button, Result } from 'antd';
import { Navigate, useLocation, useParams } from 'react-router';
import { useAuth } from '../../app/auth';
import { PageLoading } from '../../app/PageLoading';
import { t } from '../../lib/i18n';
import { ChatProblem } from './ChatProblem';
import { useChatTarget } from './useChatTarget';

/** `/chat` opens the first target; `/chat/{n}` the n-th (from 0); anything else names no target. */
function targetIndex(id: string | undefined): number | null {
  if (id === undefined) return 0;
  return /^\d+$/.test(id) ? Number(id) : null;
}

/** /chat/{id?}: the chosen chat app in a frame, signed in with the user's first enabled token. */
export default function ChatPage() {
  const { user } = useAuth();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <ChatFrame />;
}

function ChatFrame() {
  const { id } = useParams();
  const target = useChatTarget(targetIndex(id));
  if (target.state === 'problem') return <ChatProblem message={target.message} />;
  if (target.state === 'loading') return <PageLoading />;
  if (target.kind === 'app') {
    // Desktop and mobile apps (ama://, opencat://) cannot live in a frame; the browser hands the link to the app.
    return (
      <Result
        status="info"
        title={target.name}
        extra={
          <Button type="primary" href={target.url}>
            {t('在应用中打开')}
          </Button>
        }
      />
    );
  }
  return (
    <iframe
      key={target.url}
      src={target.url}
      title={target.name}
      allow="camera; microphone; clipboard-read; clipboard-write"
      style={{ display: 'block', width: '100%', height: 'calc(100vh - 160px)', minHeight: 480, border: 'none' }}
    />
  );
}
