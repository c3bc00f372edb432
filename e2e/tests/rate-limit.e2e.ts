import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from '../support/fixture.js';
import { signedIn, toast } from '../support/settings.js';

/*
 * The console's per-address API limit as a person meets it: once this address has used up GLOBAL_API_RATE_LIMIT,
 * the console says so in the spec's words instead of failing silently.
 */

describe('the console under the per-address API limit', () => {
  const env = useServerAndBrowser({ GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: '40', GLOBAL_API_RATE_LIMIT_DURATION: '600' });

  it('shows 错误：请求次数过多，请稍后再试！ when the server answers 429', async () => {
    const baseUrl = env.server().baseUrl;
    const { page, close } = await signedIn(env.browser(), baseUrl, 'root', '123456');
    // Use up what is left of this address's budget (the browser and the test share 127.0.0.1).
    let status = 200;
    for (let i = 0; i < 60 && status !== 429; i++) status = (await fetch(`${baseUrl}/api/status`)).status;
    expect(status).toBe(429);
    await page.reload();
    await toast(page, '错误：请求次数过多，请稍后再试！');
    await close();
  });
});
