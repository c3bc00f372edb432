import { RelayError } from '../../errors.js';

/** The fields of a Google service-account key file this provider uses. */
export interface ServiceAccount {
  projectId: string;
  privateKeyId: string;
  privateKey: string;
  clientEmail: string;
  tokenUri: string;
}

export const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

const REQUIRED = ['project_id', 'private_key_id', 'private_key', 'client_email'] as const;

export function invalidKey(): RelayError {
  return new RelayError(500, 'Vertex AI 渠道密钥应为服务账号 JSON', 'invalid_channel_key', undefined, false);
}

/** The channel key (a service-account JSON file's content) as a ServiceAccount; throws when it is not one. */
export function parseServiceAccount(key: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw invalidKey();
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidKey();
  const json = parsed as Record<string, unknown>;
  if (json.type !== undefined && json.type !== 'service_account') throw invalidKey();
  for (const field of REQUIRED) if (typeof json[field] !== 'string' || json[field] === '') throw invalidKey();
  const tokenUri = typeof json.token_uri === 'string' && json.token_uri ? json.token_uri : DEFAULT_TOKEN_URI;
  return {
    projectId: json.project_id as string,
    privateKeyId: json.private_key_id as string,
    privateKey: json.private_key as string,
    clientEmail: json.client_email as string,
    tokenUri,
  };
}
