import { afterEach } from 'vitest';
import { takeCspViolations } from './browser.js';

// Every browser test also proves the console's Content-Security-Policy: anything it blocked fails the test.
afterEach(() => {
  const violations = takeCspViolations();
  if (violations.length > 0) throw new Error(`the Content-Security-Policy blocked:\n${violations.join('\n')}`);
});
