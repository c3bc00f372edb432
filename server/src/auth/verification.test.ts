import { describe, expect, it } from 'vitest';
import { CODE_TTL_SECONDS, CodeStore } from './verification.js';

describe('email verification codes', () => {
  it('accepts the live code for its purpose and address only, until it expires', () => {
    let now = 1_000;
    const codes = new CodeStore(() => now);
    const code = codes.issue('register', 'A@Example.com');
    expect(code).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(codes.verify('register', 'a@example.com ', code)).toBe(true);
    expect(codes.verify('register', 'b@example.com', code)).toBe(false);
    expect(codes.verify('password_reset', 'a@example.com', code)).toBe(false);
    expect(codes.verify('register', 'a@example.com', '')).toBe(false);
    codes.issue('register', 'c@example.com', 'AbCdEf');
    expect(codes.verify('register', 'c@example.com', 'abcdef')).toBe(false);
    now += CODE_TTL_SECONDS - 1;
    expect(codes.verify('register', 'a@example.com', code)).toBe(true);
    now += 1;
    expect(codes.verify('register', 'a@example.com', code)).toBe(false);
  });

  it('replaces an earlier code and forgets a consumed one', () => {
    const codes = new CodeStore();
    const first = codes.issue('register', 'x@example.com', 'AAAAAA');
    const second = codes.issue('register', 'x@example.com', 'BBBBBB');
    expect(codes.verify('register', 'x@example.com', first)).toBe(false);
    expect(codes.verify('register', 'x@example.com', second)).toBe(true);
    codes.consume('register', 'x@example.com');
    expect(codes.verify('register', 'x@example.com', second)).toBe(false);
  });
});
