import { pathSegment } from '../../path-segment.js';
import type { CountCall, UpstreamCall, UpstreamRequest } from '../../types.js';
import { claudeBodyModel, claudeCountBody, readInputTokens } from '../claude/count.js';
import type { ServiceAccount } from './key.js';
import { vertexClaudeModel } from './model-name.js';
import { regionFor, regionHost } from './region.js';

/** The anthropic_version Vertex requires in the body of every Claude call (instead of the header). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export type VertexWire = 'claude' | 'gemini';

export function isClaudeModel(model: string): boolean {
  return model.startsWith('claude');
}

/** The publisher model's endpoint prefix: …/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}. */
function modelUrl(up: UpstreamCall, sa: ServiceAccount, publisher: string, model: string): string {
  const region = regionFor(up.channel.other, [up.upstreamModel, up.call.model]);
  const origin = up.channel.baseUrl ? up.channel.baseUrl.replace(/\/+$/, '') : `https://${regionHost(region)}`;
  // "@" is legal in a path segment and is how Vertex's own clients write model versions.
  const path = `/v1/projects/${pathSegment(sa.projectId)}/locations/${pathSegment(region)}/publishers/${publisher}/models/${pathSegment(model, '@')}`;
  return origin + path;
}

/** Claude through rawPredict: Anthropic's Messages body without `model` (it is in the URL), with Vertex's version. */
function claudeRequest(up: UpstreamCall, sa: ServiceAccount): { url: string; body: string } {
  const source = up.converted ?? up.call.json ?? {};
  // A converted body names the model the codec settled on (e.g. without a "-thinking" suffix).
  const name = up.converted && typeof up.converted.model === 'string' ? up.converted.model : up.upstreamModel;
  const { model: _model, anthropic_version: _version, ...rest } = source;
  const body = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
  const action = up.call.stream ? 'streamRawPredict' : 'rawPredict';
  return { url: `${modelUrl(up, sa, 'anthropic', vertexClaudeModel(name))}:${action}`, body: JSON.stringify(body) };
}

/** Gemini through generateContent: the Gemini body as it is. */
function geminiRequest(up: UpstreamCall, sa: ServiceAccount): { url: string; body: Buffer | string } {
  const action = up.call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  // Same format from the client: its bytes go upstream untouched (thought signatures stay exactly as issued).
  const body = up.converted ? JSON.stringify(up.converted) : (up.call.raw ?? JSON.stringify(up.call.json ?? {}));
  return { url: `${modelUrl(up, sa, 'google', up.upstreamModel)}:${action}`, body };
}

/** URL, headers and body of one Vertex call, given the service account and its access token. */
export function buildVertexRequest(up: UpstreamCall, sa: ServiceAccount, accessToken: string): UpstreamRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  if (up.call.stream) headers.accept = 'text/event-stream';
  if (up.wire === 'claude') {
    const beta = up.call.passHeaders?.['anthropic-beta'];
    if (beta) headers['anthropic-beta'] = beta;
    const { url, body } = claudeRequest(up, sa);
    return { url, method: 'POST', headers, body };
  }
  const { url, body } = geminiRequest(up, sa);
  return { url, method: 'POST', headers, body };
}

/** Fields of a Gemini body Vertex's countTokens takes (it has no safetySettings, toolConfig or cachedContent). */
const GEMINI_COUNTED = ['contents', 'systemInstruction', 'tools', 'generationConfig'];

/**
 * Vertex's token counts, free: Claude models through Anthropic's count-tokens:rawPredict (the model named in the
 * body), Gemini models through the publisher model's :countTokens ({"totalTokens": n}).
 */
export function vertexCountRequest(up: UpstreamCall, sa: ServiceAccount, accessToken: string, body: Record<string, unknown>): CountCall {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  if (up.wire === 'claude') {
    const beta = up.call.passHeaders?.['anthropic-beta'];
    if (beta) headers['anthropic-beta'] = beta;
    const count = claudeCountBody(body, vertexClaudeModel(claudeBodyModel(up.converted, up.upstreamModel)));
    return { request: { url: `${modelUrl(up, sa, 'anthropic', 'count-tokens')}:rawPredict`, method: 'POST', headers, body: JSON.stringify(count) }, read: readInputTokens };
  }
  const count: Record<string, unknown> = {};
  for (const key of GEMINI_COUNTED) if (body[key] !== undefined) count[key] = body[key];
  return {
    request: { url: `${modelUrl(up, sa, 'google', up.upstreamModel)}:countTokens`, method: 'POST', headers, body: JSON.stringify(count) },
    read: (answer) => (typeof answer.totalTokens === 'number' ? answer.totalTokens : null),
  };
}
