import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until a deadline `seconds` after `start()`, read from the clock on every tick (a chain of one-second
 * timers drifts, and browsers slow timers in background tabs). `stop()` ends it without expiring.
 */
export function useExpiry(seconds: number): { remaining: number; expired: boolean; start(): void; stop(): void } {
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const expired = deadline > 0 && now >= deadline;
  useEffect(() => {
    if (deadline === 0 || expired) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [deadline, expired]);
  const start = useCallback(() => {
    const at = Date.now();
    setNow(at);
    setDeadline(at + seconds * 1000);
  }, [seconds]);
  const stop = useCallback(() => setDeadline(0), []);
  const remaining = deadline === 0 ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
  return { remaining, expired, start, stop };
}
