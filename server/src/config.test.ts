import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('reads upstream timeouts in seconds with fractions (half a second is not "no timeout")', () => {
    const config = loadConfig({ RELAY_TIMEOUT: '0.5', STREAMING_TIMEOUT: '1.5' });
    expect(config.relayTimeoutSeconds).toBe(0.5);
    expect(config.streamingTimeoutSeconds).toBe(1.5);
  });

  it('keeps the documented defaults and refuses what is not a number', () => {
    const config = loadConfig({});
    expect(config.relayTimeoutSeconds).toBe(0);
    expect(config.streamingTimeoutSeconds).toBe(60);
    expect(config.shutdownTimeoutSeconds).toBe(30);
    expect(() => loadConfig({ RELAY_TIMEOUT: 'soon' })).toThrow();
  });

  it('points GitHub sign-in at github.com unless told otherwise (GitHub Enterprise, a local stand-in)', () => {
    const config = loadConfig({});
    expect(config.githubOAuthUrl).toBe('https://github.com');
    expect(config.githubApiUrl).toBe('https://api.github.com');
    const own = loadConfig({ GITHUB_OAUTH_URL: 'https://git.example.com/', GITHUB_API_URL: 'https://git.example.com/api/v3' });
    expect(own.githubOAuthUrl).toBe('https://git.example.com');
    expect(own.githubApiUrl).toBe('https://git.example.com/api/v3');
    expect(() => loadConfig({ GITHUB_OAUTH_URL: 'git.example.com' })).toThrow();
  });

  it("checks Turnstile tokens at Cloudflare's siteverify unless TURNSTILE_VERIFY_URL says otherwise", () => {
    expect(loadConfig({}).turnstileVerifyUrl).toBe('https://challenges.cloudflare.com/turnstile/v0/siteverify');
    expect(loadConfig({ TURNSTILE_VERIFY_URL: ' http://127.0.0.1:9/verify ' }).turnstileVerifyUrl).toBe('http://127.0.0.1:9/verify');
  });
});
