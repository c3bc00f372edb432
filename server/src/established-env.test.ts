import { describe, expect, it } from 'vitest';
import { UNHONOURED_ENV, unhonouredEnvWarnings } from './established-env.js';

describe('warnings about established environment variables', () => {
  it('are none for an environment of honoured names only', () => {
    expect(
      unhonouredEnvWarnings({
        PORT: '3000', SQL_DSN: 'postgres://x', SQLITE_PATH: 'one-api.db', REDIS_CONN_STRING: 'redis://r', SESSION_SECRET: 's',
        SYNC_FREQUENCY: '60', NODE_TYPE: 'slave', FRONTEND_BASE_URL: 'https://console.example', STREAMING_TIMEOUT: '60',
        RELAY_TIMEOUT: '0', GLOBAL_API_RATE_LIMIT: '180', GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false', LOG_SQL_DSN: 'mysql://x', TZ: 'Asia/Shanghai',
      }),
    ).toEqual([]);
  });

  it('name each variable that is set but not honoured, and say what happens instead', () => {
    const warnings = unhonouredEnvWarnings({ CRYPTO_SECRET: 'abc', BATCH_UPDATE_INTERVAL: '5', GENERATE_DEFAULT_TOKEN: 'true' });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^CRYPTO_SECRET is set but not honoured by Switchyard: .+/);
    expect(warnings.join('\n')).toContain('BATCH_UPDATE_INTERVAL');
    expect(warnings.join('\n')).toContain('GENERATE_DEFAULT_TOKEN');
  });

  it('ignore empty values', () => {
    expect(unhonouredEnvWarnings({ CRYPTO_SECRET: '  ', SQL_MAX_IDLE_CONNS: '' })).toEqual([]);
  });

  it('warn about a switch only when it asks for what cannot be had here', () => {
    expect(unhonouredEnvWarnings({ BATCH_UPDATE_ENABLED: 'true', MEMORY_CACHE_ENABLED: 'true', FORCE_STREAM_OPTION: 'true' })).toEqual([]);
    const off = unhonouredEnvWarnings({ BATCH_UPDATE_ENABLED: 'false', MEMORY_CACHE_ENABLED: '0', FORCE_STREAM_OPTION: 'false' });
    expect(off.map((w) => w.split(' ')[0])).toEqual(['MEMORY_CACHE_ENABLED', 'BATCH_UPDATE_ENABLED', 'FORCE_STREAM_OPTION']);
  });

  it('say FRONTEND_BASE_URL is for slave nodes when set on a master', () => {
    expect(unhonouredEnvWarnings({ FRONTEND_BASE_URL: 'https://console.example' })).toEqual([expect.stringMatching(/only honoured with NODE_TYPE=slave/)]);
  });

  it('cover every established name listed in the README as not honoured', async () => {
    const fs = await import('node:fs');
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(UNHONOURED_ENV)) expect(readme, name).toContain(`\`${name}\``);
  });
});
