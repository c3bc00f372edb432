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

  it('leases jobs for 40 s unless JOB_LEASE_TTL gives whole seconds from 2 to 3600', () => {
    expect(loadConfig({}).jobLeaseTtlSeconds).toBe(40);
    expect(loadConfig({ JOB_LEASE_TTL: '6' }).jobLeaseTtlSeconds).toBe(6);
    expect(loadConfig({ JOB_LEASE_TTL: '3600' }).jobLeaseTtlSeconds).toBe(3600);
    for (const refused of ['1', '0', '3601', '2.5', 'soon', '-5']) expect(() => loadConfig({ JOB_LEASE_TTL: refused })).toThrow(/JOB_LEASE_TTL/);
  });

  it('writes settlement batches 100 ms apart unless SETTLEMENT_INTERVAL_MS gives whole milliseconds from 10 to 60000', () => {
    expect(loadConfig({}).settlementIntervalMs).toBe(100);
    expect(loadConfig({ SETTLEMENT_INTERVAL_MS: '500' }).settlementIntervalMs).toBe(500);
    for (const refused of ['5', '60001', '2.5', 'soon']) expect(() => loadConfig({ SETTLEMENT_INTERVAL_MS: refused })).toThrow(/SETTLEMENT_INTERVAL_MS/);
  });

  it("opens the file an established SQLITE_PATH names, without its driver parameters", () => {
    expect(loadConfig({ SQLITE_PATH: '/data/one-api.db?_busy_timeout=5000' }).sqlitePath).toBe('/data/one-api.db');
    expect(loadConfig({ SQLITE_PATH: '/data/switchyard.db' }).sqlitePath).toBe('/data/switchyard.db');
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

  it('limits each address on the API, the pages and the critical routes by default, as configured', () => {
    const config = loadConfig({});
    expect(config.globalApiRateLimit).toEqual({ enabled: true, max: 180, durationSeconds: 180 });
    expect(config.globalWebRateLimit).toEqual({ enabled: true, max: 60, durationSeconds: 180 });
    expect(config.criticalRateLimit).toEqual({ enabled: true, max: 20, durationSeconds: 1200 });
    const set = loadConfig({
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_API_RATE_LIMIT: '1000',
      GLOBAL_API_RATE_LIMIT_DURATION: '60',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: '0',
      CRITICAL_RATE_LIMIT: '5',
      CRITICAL_RATE_LIMIT_DURATION: '0.5',
    });
    expect(set.globalApiRateLimit).toEqual({ enabled: false, max: 1000, durationSeconds: 60 });
    expect(set.globalWebRateLimit.enabled).toBe(false);
    expect(set.criticalRateLimit).toEqual({ enabled: true, max: 5, durationSeconds: 0.5 });
    expect(() => loadConfig({ GLOBAL_WEB_RATE_LIMIT: 'many' })).toThrow();
  });
});
