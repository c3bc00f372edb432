/*
 * Environment variables of the established gateways (new-api, one-api) that mean nothing here, and what this server
 * does instead. An operator who moves over with their old environment gets one warning per variable that is set but
 * not honoured, rather than a setting silently ignored. The names that are honoured are read in config.ts; the README
 * lists both.
 */

interface Unhonoured {
  /** What the server does instead (the warning's second half). */
  instead: string;
  /** Warn only for these values (e.g. a switch whose "on" is what happens here anyway); every set value otherwise. */
  when?: (value: string) => boolean;
}

const isOff = (value: string) => ['false', '0', 'no', 'off'].includes(value.toLowerCase());

export const UNHONOURED_ENV: Readonly<Record<string, Unhonoured>> = {
  CRYPTO_SECRET: { instead: 'token keys are not kept in Redis here (each process caches them in memory, kept coherent through Redis messages), so no key is needed' },
  SQL_MAX_IDLE_CONNS: { instead: 'the pool keeps up to SQL_MAX_OPEN_CONNS connections open' },
  SQL_MAX_LIFETIME: { instead: 'connections stay open until the database ends them; a lost one is replaced' },
  REDIS_POOL_SIZE: { instead: 'Redis connections are opened per purpose (commands, messages), not pooled' },
  MEMORY_CACHE_ENABLED: { instead: 'users, tokens, channels and options are always cached in memory', when: isOff },
  BATCH_UPDATE_ENABLED: { instead: 'balances, counters and consume logs are always written in batches, one transaction each', when: isOff },
  BATCH_UPDATE_INTERVAL: { instead: 'settlements are written every 100 ms (or sooner when many are waiting)' },
  FORCE_STREAM_OPTION: { instead: 'streamed chat calls always ask OpenAI-format upstreams for usage (it is what they are billed by)', when: isOff },
  GET_MEDIA_TOKEN: { instead: 'images in a prompt are counted without downloading them (85 tokens at low detail, a 1024x1024 picture otherwise) when the upstream reports no usage' },
  GET_MEDIA_TOKEN_NOT_STREAM: { instead: 'as GET_MEDIA_TOKEN: images are never downloaded to be counted' },
  DIFY_DEBUG: { instead: 'Dify workflow events are shown per channel: {"show_workflow_events": true} in the channel setting' },
  MAX_FILE_DOWNLOAD_MB: { instead: 'the relay does not download the images or files a request links to' },
  AZURE_DEFAULT_API_VERSION: { instead: 'an Azure channel\'s API version is its "other" field (2024-06-01-preview when empty)' },
  GEMINI_VISION_MAX_IMAGE_NUM: { instead: 'the number of images in a Gemini request is not limited here' },
  GEMINI_SAFETY_SETTING: { instead: 'the option gemini.safety_settings (operation settings) sets Gemini safety' },
  COHERE_SAFETY_SETTING: { instead: 'Cohere requests carry no safety_mode (Cohere\'s default applies)' },
  NOTIFY_LIMIT_COUNT: { instead: 'low-balance notifications are not sent by this version' },
  NOTIFICATION_LIMIT_DURATION_MINUTE: { instead: 'low-balance notifications are not sent by this version' },
  GENERATE_DEFAULT_TOKEN: { instead: 'new accounts start without a token; users create their own' },
  DEBUG: { instead: 'LOG_LEVEL=debug' },
  GIN_MODE: { instead: 'LOG_LEVEL sets how much is logged' },
  ENABLE_PPROF: { instead: 'no profiler is served; METRICS_TOKEN serves Prometheus figures at /metrics' },
  TIKTOKEN_CACHE_DIR: { instead: 'the tokenizers are bundled: nothing is downloaded or cached' },
};

/** One warning per established variable that is set (not empty) but not honoured here. */
export function unhonouredEnvWarnings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  for (const [name, { instead, when }] of Object.entries(UNHONOURED_ENV)) {
    const value = env[name]?.trim();
    if (!value || (when && !when(value))) continue;
    warnings.push(`${name} is set but not honoured by Switchyard: ${instead}`);
  }
  if (env.FRONTEND_BASE_URL?.trim() && env.NODE_TYPE !== 'slave') {
    warnings.push('FRONTEND_BASE_URL is set but only honoured with NODE_TYPE=slave (as in the established gateway): this node serves the console itself');
  }
  return warnings;
}
