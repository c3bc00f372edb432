import { useCallback, useEffect, useState } from 'react';

/** A seconds countdown (e.g. the 30 s wait before resending an email code). `start()` begins it again. */
export function useCountdown(seconds: number): { remaining: number; running: boolean; start(): void } {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((r) => r - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);
  const start = useCallback(() => setRemaining(seconds), [seconds]);
  return { remaining, running: remaining > 0, start };
}
