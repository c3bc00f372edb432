import { describe, expect, it } from 'vitest';
import { newPage, takeCspViolations } from '../support/browser.js';
import { useServerAndBrowser } from '../support/fixture.js';

/*
 * The console's Content-Security-Policy as a browser applies it. Every browser test fails on a violation
 * (support/no-csp-violations.ts), so the whole suite shows the console's own pages pass it; this file shows it bites.
 */

describe("the console's Content-Security-Policy", () => {
  const env = useServerAndBrowser();

  it('keeps a script that finds its way into the page from running, and reports it', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/login');
    await page.getByLabel('用户名').waitFor();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.injected = true');
      // Listeners run in the order they were added: the attribute's handler (had it been let run) comes first.
      const failed = new Promise((resolve) => img.addEventListener('error', resolve, { once: true }));
      img.src = 'data:,';
      document.body.append(img);
      await failed;
      return (window as unknown as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    // The reports reach the test through the page's binding, after the evaluation has returned.
    const violations: string[] = [];
    await expect
      .poll(() => {
        violations.push(...takeCspViolations());
        return ['script-src-elem blocked inline', 'script-src-attr blocked inline'].filter((d) => !violations.some((v) => v.includes(d)));
      })
      .toEqual([]);
    await context.close();
  });

  it('keeps the console out of other sites’ frames', async () => {
    const res = await fetch(`${env.server().baseUrl}/login`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});
