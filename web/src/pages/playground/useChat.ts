import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { redirectToLogin } from '../../api/client';
import { t } from '../../lib/i18n';
import { LiveMessage } from './liveMessage';
import { conversationTurns, pendingReply, sampleMessages, userMessage, type ChatMessage } from './messages';
import { requestBody, type PlaygroundSettings } from './settings';
import { streamChat, type StreamEnd } from './chatStream';

export interface Chat {
  /** Finished messages; the reply under way is in `live`. */
  messages: ChatMessage[];
  live: LiveMessage;
  streaming: boolean;
  send(text: string): void;
  /** Asks again for the last reply. */
  regenerate(): void;
  /** Ends the reply under way, keeping what arrived. */
  stop(): void;
  clear(): void;
}

/** The reply as it ended: an error keeps what arrived and adds the server's text. */
function finished(reply: ChatMessage, end: StreamEnd): ChatMessage {
  if (end.kind !== 'error') return { ...reply, status: 'complete' };
  return { ...reply, status: 'error', content: reply.content ? `${reply.content}\n\n${end.message}` : end.message };
}

/** The playground conversation: sending, streaming the reply, stop, regenerate, clear. */
export function useChat(settings: PlaygroundSettings): Chat {
  const [messages, setMessages] = useState<ChatMessage[]>(sampleMessages);
  const [streaming, setStreaming] = useState(false);
  const live = useMemo(() => new LiveMessage(), []);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const call = useRef<AbortController | null>(null);

  const run = useCallback(
    async (history: ChatMessage[]) => {
      call.current?.abort();
      const controller = new AbortController();
      call.current = controller;
      const reply = pendingReply();
      setMessages(history);
      live.set(reply);
      setStreaming(true);
      let end: StreamEnd;
      try {
        const body = requestBody(settingsRef.current, conversationTurns(history));
        end = await streamChat(body, controller.signal, (content, reasoning) => live.append(content, reasoning));
      } catch {
        // Stopped by the user, or the network failed (before the answer, or cutting it short).
        end = controller.signal.aborted ? { kind: 'complete' } : { kind: 'error', message: t('无法正常连接至服务器！') };
      }
      // Cleared or replaced meanwhile: this reply belongs to a conversation that is gone.
      if (call.current !== controller) return;
      call.current = null;
      const last = live.current() ?? reply;
      live.clear();
      setStreaming(false);
      if (end.kind === 'unauthorized') {
        redirectToLogin();
        return;
      }
      setMessages((prev) => [...prev, finished(last, end)]);
    },
    [live],
  );

  const send = useCallback((text: string) => void run([...messagesRef.current, userMessage(text)]), [run]);

  const regenerate = useCallback(() => {
    const current = messagesRef.current;
    const lastUser = current.findLastIndex((m) => m.role === 'user');
    if (lastUser >= 0) void run(current.slice(0, lastUser + 1));
  }, [run]);

  const stop = useCallback(() => call.current?.abort(), []);

  const clear = useCallback(() => {
    const pending = call.current;
    call.current = null;
    pending?.abort();
    live.clear();
    setStreaming(false);
    setMessages([]);
  }, [live]);

  // Leaving the page ends the reply under way.
  useEffect(() => () => call.current?.abort(), []);

  return { messages, live, streaming, send, regenerate, stop, clear };
}
