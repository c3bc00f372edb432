import { useEffect } from 'react';
import { PageLoading } from '../../app/PageLoading';
import { ChatProblem } from './ChatProblem';
import { useChatTarget } from './useChatTarget';

/** /chat2link: straight to the first chat target with the user's first enabled token. */
export default function Chat2LinkPage() {
  const target = useChatTarget(0);
  const url = target.state === 'ready' ? target.url : null;
  useEffect(() => {
    if (url) window.location.replace(url);
  }, [url]);
  if (target.state === 'problem') return <ChatProblem message={target.message} />;
  return <PageLoading />;
}
