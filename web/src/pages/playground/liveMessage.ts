import type { ChatMessage } from './messages';

/*
 * The reply being streamed, kept outside React state: chunks change it as fast as they come, and the one component
 * that shows it repaints at most once per animation frame. The finished conversation never re-renders meanwhile.
 */
export class LiveMessage {
  private latest: ChatMessage | null = null;
  private shown: ChatMessage | null = null;
  private frame = 0;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The message as last painted (stable between paints, as useSyncExternalStore needs). */
  snapshot = (): ChatMessage | null => this.shown;

  /** The message with every chunk so far, painted or not. */
  current(): ChatMessage | null {
    return this.latest;
  }

  /** Replaces the message; painted on the next animation frame. */
  set(message: ChatMessage | null): void {
    this.latest = message;
    if (this.frame === 0) this.frame = requestAnimationFrame(this.paint);
  }

  /** Appends streamed text; the first text turns a loading reply into an incomplete one. */
  append(content: string, reasoning: string): void {
    const m = this.latest;
    if (!m) return;
    this.set({ ...m, content: m.content + content, reasoning: reasoning ? (m.reasoning ?? '') + reasoning : m.reasoning, status: 'incomplete' });
  }

  /** Ends the message now (no frame wait): nothing is shown live any more. */
  clear(): void {
    if (this.frame !== 0) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.latest = null;
    this.publish(null);
  }

  private paint = (): void => {
    this.frame = 0;
    this.publish(this.latest);
  };

  private publish(message: ChatMessage | null): void {
    if (message === this.shown) return;
    this.shown = message;
    for (const listener of this.listeners) listener();
  }
}
