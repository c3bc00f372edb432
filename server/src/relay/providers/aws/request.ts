import { pathSegment } from '../../path-segment.js';
import type { UpstreamCall, UpstreamRequest } from '../../types.js';
import { claudeExtraHeaders } from '../claude/provider.js';
import { parseAwsKey, type AwsKey } from './key.js';
import { bedrockFoundationModelId, bedrockModelId } from './models.js';
import type { CountCall } from '../../types.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
const SIGNING_SERVICE = 'bedrock';

/**
 * The beta flags Bedrock's InvokeModel takes for Claude, as AWS documents them. Any other flag fails the whole call
 * with 400 "invalid beta flag", and Claude Code sends several on every call (`claude-code-20250219`,
 * `advanced-tool-use-2025-11-20`, `prompt-caching-scope-…`) that only Anthropic's own API knows: those are left out
 * and named as dropped. Flags the operator set for the model (claude.model_headers_settings) always go: the operator
 * knows what their account takes, this list may lag behind AWS.
 */
export const BEDROCK_BETAS: ReadonlySet<string> = new Set([
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
]);

/**
 * The Claude Messages body as Bedrock's InvokeModel takes it: the model travels in the path and streaming is chosen
 * by the operation, so `model` and `stream` go; the version is Bedrock's; beta flags move from the anthropic-beta
 * header into the body, those Bedrock does not take named in `dropped` (as `anthropic-beta=<flag>`) instead.
 */
export function bedrockBody(
  json: Record<string, unknown>,
  betaHeader: string | undefined,
  betas: { configured?: ReadonlySet<string>; dropped?: string[] } = {},
): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = json;
  const body: Record<string, unknown> = { ...rest, anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  const fromHeader = (betaHeader ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  const inBody = Array.isArray(rest.anthropic_beta) ? rest.anthropic_beta.filter((b): b is string => typeof b === 'string') : [];
  const sent: string[] = [];
  for (const beta of new Set([...inBody, ...fromHeader])) {
    if (BEDROCK_BETAS.has(beta) || betas.configured?.has(beta)) sent.push(beta);
    else betas.dropped?.push(`anthropic-beta=${beta}`);
  }
  if (sent.length > 0) body.anthropic_beta = sent;
  else delete body.anthropic_beta;
  return body;
}

/**
 * The InvokeModel (or InvokeModelWithResponseStream) URL. The model id is percent-encoded in the path (its `:` as
 * %3A), as the AWS SDKs send it; the signature covers that encoded path.
 */
export function bedrockUrl(base: string, region: string, modelId: string, stream: boolean): string {
  const origin = (base || `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, '');
  return `${origin}/model/${pathSegment(modelId)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;
}

/** SigV4 headers (x-amz-date, x-amz-content-sha256, authorization, x-amz-security-token) for one POST. */
export async function signBedrockRequest(
  url: string,
  headers: Record<string, string>,
  body: string,
  key: AwsKey,
  signingDate = new Date(),
): Promise<Record<string, string>> {
  // Loaded on first use: a gateway without AWS channels does not keep the signer in memory.
  const [{ Sha256 }, { SignatureV4 }] = await Promise.all([import('@aws-crypto/sha256-js'), import('@smithy/signature-v4')]);
  const u = new URL(url);
  const signer = new SignatureV4({
    service: SIGNING_SERVICE,
    region: key.region,
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey, sessionToken: key.sessionToken },
    sha256: Sha256,
  });
  const query: Record<string, string> = {};
  for (const [k, v] of u.searchParams) query[k] = v;
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: u.protocol,
      hostname: u.hostname,
      port: u.port ? Number(u.port) : undefined,
      path: u.pathname,
      query,
      headers: { ...headers, host: u.host },
      body,
    },
    { signingDate },
  );
  return signed.headers;
}

/** The beta flags the operator set for the call's model in claude.model_headers_settings. */
function configuredBetas(up: UpstreamCall): Set<string> {
  const settings = up.options.get('claude.model_headers_settings')[up.upstreamModel];
  if (!settings || typeof settings !== 'object') return new Set();
  const entry = Object.entries(settings as Record<string, unknown>).find(([name]) => name.toLowerCase() === 'anthropic-beta')?.[1];
  return new Set((Array.isArray(entry) ? entry : [entry]).filter((v): v is string => typeof v === 'string' && v !== ''));
}

/** One Bedrock call: the Claude body (converted, or the client's own), addressed to the mapped model, signed. */
export async function buildBedrockRequest(up: UpstreamCall, signingDate = new Date()): Promise<UpstreamRequest> {
  const key = parseAwsKey(up.key);
  // A converted body already carries the channel's parameter overrides (the Claude codec applies them).
  const source = up.converted ?? { ...up.call.json, ...up.channel.paramOverride };
  // A converted body names the model the codec settled on (e.g. without a -thinking suffix); the client's own body
  // names the client's model, so the channel-mapped one is used instead.
  const model = up.converted && typeof up.converted.model === 'string' && up.converted.model ? up.converted.model : up.upstreamModel;
  // The client's anthropic-beta joined with claude.model_headers_settings, as the Anthropic channel sends them.
  const betas = { configured: configuredBetas(up), dropped: (up.dropped ??= []) };
  const body = JSON.stringify(bedrockBody(source, claudeExtraHeaders(up)['anthropic-beta'], betas));
  const stream = up.call.stream;
  const url = bedrockUrl(up.channel.baseUrl, key.region, bedrockModelId(model, key.region), stream);
  const headers: Record<string, string> = stream
    ? { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-accept': 'application/json' }
    : { 'content-type': 'application/json', accept: 'application/json' };
  return { url, method: 'POST', headers: await signBedrockRequest(url, headers, body, key, signingDate), body };
}

/**
 * Bedrock's CountTokens (POST /model/{modelId}/count-tokens) for an InvokeModel body: the same body InvokeModel
 * would get, base64 in input.invokeModel.body; the answer is {"inputTokens": n}.
 */
export async function bedrockCountRequest(up: UpstreamCall, body: Record<string, unknown>, signingDate = new Date()): Promise<CountCall> {
  const key = parseAwsKey(up.key);
  const model = up.converted && typeof up.converted.model === 'string' && up.converted.model ? up.converted.model : up.upstreamModel;
  // count_tokens bodies have no max_tokens, which InvokeModel requires; it does not change the count.
  const invoke = bedrockBody({ max_tokens: 1, ...body }, claudeExtraHeaders(up)['anthropic-beta'], { configured: configuredBetas(up) });
  const payload = JSON.stringify({ input: { invokeModel: { body: Buffer.from(JSON.stringify(invoke)).toString('base64') } } });
  const origin = (up.channel.baseUrl || `https://bedrock-runtime.${key.region}.amazonaws.com`).replace(/\/+$/, '');
  const url = `${origin}/model/${pathSegment(bedrockFoundationModelId(model))}/count-tokens`;
  const headers = await signBedrockRequest(url, { 'content-type': 'application/json', accept: 'application/json' }, payload, key, signingDate);
  return {
    request: { url, method: 'POST', headers, body: payload },
    read: (answer) => (typeof answer.inputTokens === 'number' ? answer.inputTokens : null),
  };
}
