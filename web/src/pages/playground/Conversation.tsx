import { memo, useCallback, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { Empty } from 'antd';
import { useCopyText } from '../../components/useCopyText';
import { t } from '../../lib/i18n';
import type { LiveMessage } from './liveMessage';
import type { ChatMessage } from './messages';
import { MessageBubble } from './MessageBubble';

interface Props {
  messages: ChatMessage[];
  live: LiveMessage;
  streaming: boolean;
  onRegenerate: () => void;
}

/** Distance from the bottom (px) within which the view follows a growing reply. */
const FOLLOW_MARGIN = 48;

/**
 * The conversation: finished messages (memoized: they never repaint while a reply streams) and the reply under way,
 * which alone follows the stream. The view stays at the bottom while the reader is there.
 */
export function Conversation({ messages, live, streaming, onRegenerate }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const copy = useCopyText();
  const onCopy = useCallback((text: string) => void copy(text), [copy]);

  const follow = useCallback(() => {
    const el = box.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, []);
  const onScroll = () => {
    const el = box.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_MARGIN;
  };
  useLayoutEffect(() => {
    // Asking (a new or regenerated question) brings the view down; a reply ending leaves a reader where they are.
    if (messages.at(-1)?.role === 'user') following.current = true;
    follow();
  }, [messages, follow]);

  const lastIndex = messages.length - 1;
  return (
    <div ref={box} onScroll={onScroll} role="log" aria-label={t('对话')} style={{ flex: 1, overflowY: 'auto', padding: '16px 8px' }}>
      {messages.length === 0 && !streaming && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('开始新的对话吧')} />}
      <FinishedMessages messages={messages} onCopy={onCopy} onRegenerate={streaming ? undefined : onRegenerate} regenerateAt={messages[lastIndex]?.role === 'assistant' ? lastIndex : -1} />
      <LiveReply live={live} onPaint={follow} />
    </div>
  );
}

interface FinishedProps {
  messages: ChatMessage[];
  onCopy: (text: string) => void;
  onRegenerate?: () => void;
  /** The index of the message offering regenerate (the last reply), or -1. */
  regenerateAt: number;
}

const FinishedMessages = memo(function FinishedMessages({ messages, onCopy, onRegenerate, regenerateAt }: FinishedProps) {
  return messages.map((m, i) => <MessageBubble key={m.id} message={m} onCopy={onCopy} onRegenerate={i === regenerateAt ? onRegenerate : undefined} />);
});

/** The reply being streamed: repainted once per animation frame at most. */
function LiveReply({ live, onPaint }: { live: LiveMessage; onPaint: () => void }) {
  const message = useSyncExternalStore(live.subscribe, live.snapshot);
  useLayoutEffect(() => {
    if (message) onPaint();
  }, [message, onPaint]);
  return message ? <MessageBubble message={message} /> : null;
}
