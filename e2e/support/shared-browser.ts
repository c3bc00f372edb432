import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, chromiumPath } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the run's one chromium (support/browser.ts connects to it). */
    chromiumEndpoint: string;
  }
}

/**
 * One chromium for the whole run: launching it for every file cost seconds of CPU each time on a 2-core machine.
 * Every test still opens its own context (fresh storage and cookies), so nothing leaks from one test to the next.
 */
export default async function launchSharedBrowser(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
