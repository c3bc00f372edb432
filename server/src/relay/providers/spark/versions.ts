/*
 * Which Spark model a call reaches: a version names both the domain sent in the request frame and the path of the
 * WebSocket endpoint. The version comes from the client's ?api-version=, else the model name (SparkDesk-v3.5, or a
 * product or domain name such as spark-max or generalv3.5), else the channel's "other" field, else v1.1 (Lite).
 */

export interface SparkVersion {
  /** parameter.chat.domain */
  domain: string;
  /** The endpoint's path. */
  path: string;
}

const VERSIONS: Readonly<Record<string, SparkVersion>> = {
  'v1.1': { domain: 'lite', path: '/v1.1/chat' },
  'v2.1': { domain: 'generalv2', path: '/v2.1/chat' },
  'v3.1': { domain: 'generalv3', path: '/v3.1/chat' },
  'v3.5': { domain: 'generalv3.5', path: '/v3.5/chat' },
  'v4.0': { domain: '4.0Ultra', path: '/v4.0/chat' },
  'max-32k': { domain: 'max-32k', path: '/chat/max-32k' },
  'pro-128k': { domain: 'pro-128k', path: '/chat/pro-128k' },
};

/** Product and domain names of the versions (lower case). */
const ALIASES: Readonly<Record<string, string>> = {
  lite: 'v1.1',
  general: 'v1.1',
  'spark-lite': 'v1.1',
  generalv2: 'v2.1',
  generalv3: 'v3.1',
  'spark-pro': 'v3.1',
  'generalv3.5': 'v3.5',
  'spark-max': 'v3.5',
  '4.0ultra': 'v4.0',
  'spark-4.0-ultra': 'v4.0',
  'spark-ultra': 'v4.0',
  'spark-max-32k': 'max-32k',
  'spark-pro-128k': 'pro-128k',
};

const DEFAULT_VERSION = 'v1.1';
const MODEL_PREFIX = /^sparkdesk-/i;
/** A version number iFlytek may add later: reached as general<version> at /<version>/chat. */
const NUMBERED = /^v\d+(\.\d+)?$/;

/** The version a name stands for, or null when it names none. */
export function versionOf(name: string | undefined): SparkVersion | null {
  const text = (name ?? '').trim();
  if (!text) return null;
  const known = VERSIONS[text] ?? VERSIONS[ALIASES[text.toLowerCase()] ?? ''];
  if (known) return known;
  return NUMBERED.test(text) ? { domain: `general${text}`, path: `/${text}/chat` } : null;
}

/** The version of one call: the client's api-version, the model name, the channel's version, then Lite. */
export function sparkVersion(apiVersion: string | undefined, model: string, channelVersion: string): SparkVersion {
  return versionOf(apiVersion) ?? versionOf(model.replace(MODEL_PREFIX, '')) ?? versionOf(channelVersion) ?? VERSIONS[DEFAULT_VERSION];
}
