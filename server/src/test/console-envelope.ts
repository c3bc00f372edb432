import { expect } from 'vitest';
import type { Session, TestApp } from './app.js';

/** The console's answer envelope. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

/** A console call that expects HTTP 200 and returns the envelope; `session()` is read at call time (set in beforeAll). */
export function consoleCaller(app: () => TestApp, session: () => Session) {
  return async <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as: Session = session()): Promise<Envelope<T>> => {
    const res = await app().call(as, { method, url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Envelope<T>;
  };
}
