import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { connectBrowser } from './browser.js';
import { startServer, type RunningServer, type StartOptions } from './server.js';

/** One real server (fresh SQLite) per test file, and a connection to the run's chromium. */
export function useServerAndBrowser(
  env: Record<string, string> = {},
  options: StartOptions = {},
): { server: () => RunningServer; browser: () => Browser } {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env, options), connectBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return { server: () => server, browser: () => browser };
}

/** Calls the console API directly (for setting up data a test is not about). */
export async function apiAs(
  baseUrl: string,
  username: string,
  password: string,
): Promise<(method: string, path: string, body?: unknown) => Promise<{ success: boolean; message: string; data: unknown }>> {
  const login = await fetch(`${baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await login.json()) as { success: boolean; message: string; data: { id: number } };
  if (!body.success) throw new Error(`login failed: ${body.message}`);
  const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  return async (method, path, payload) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, 'new-api-user': String(body.data.id), 'content-type': 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    return (await res.json()) as { success: boolean; message: string; data: unknown };
  };
}

/** Registers an account through the API (password registration must be open). */
export async function registerUser(baseUrl: string, username: string, password = 'password123'): Promise<void> {
  const res = await fetch(`${baseUrl}/api/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, password2: password }),
  });
  const body = (await res.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`register ${username} failed: ${body.message}`);
}
