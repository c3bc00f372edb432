import { useTestPasswordCost } from '../auth/password.js';

/*
 * Set up before every file of the server project (vitest.config.ts): hashes made in the test process are cheap.
 * The production cost is proved where it runs: auth/password.test.ts switches back to it, and every server a test
 * starts as a process of its own (server-process.ts, built-server.ts, deploy/start.test.ts, the browser suite)
 * never runs this file.
 */
useTestPasswordCost();
