import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, WireFeature } from '../../types.js';
import { parseVertexError } from './errors.js';
import { parseServiceAccount } from './key.js';
import { buildVertexRequest, isClaudeModel, vertexCountRequest } from './request.js';
import { AccessTokenCache, fetchAccessToken } from './token.js';
import { sharedOnNode } from '../shared-tokens.js';

/**
 * Vertex gates Claude's structured outputs behind an organisation policy that is off by default, and lists fewer
 * models for them than Anthropic: a response format goes to Claude there as a forced tool.
 */
const CLAUDE_WITHHELD: ReadonlySet<WireFeature> = new Set(['claude.output_format']);
const NONE: ReadonlySet<WireFeature> = new Set();

/**
 * Google Vertex AI (channel type 41): Claude models through Anthropic's Messages body (rawPredict), the rest through
 * Gemini's body (generateContent), authorised with an access token of the channel's service account.
 */
export function createVertexProvider(tokens: AccessTokenCache): Provider {
  return {
    name: 'vertex',
    types: [CHANNEL_TYPE.VERTEX_AI],
    supports: (mode) => mode === 'chat',
    wire: (up) => (isClaudeModel(up.upstreamModel) ? 'claude' : 'gemini'),
    withholds: (up) => (isClaudeModel(up.upstreamModel) ? CLAUDE_WITHHELD : NONE),
    async build(up) {
      const sa = parseServiceAccount(up.key);
      return buildVertexRequest(up, sa, await tokens.get(sa));
    },
    parseError: (status, body) => parseVertexError(status, body),
    async countTokens(up, body) {
      const sa = parseServiceAccount(up.key);
      return vertexCountRequest(up, sa, await tokens.get(sa), body);
    },
    defaultTestModel: 'gemini-2.5-flash',
  };
}

/** Shared by every Vertex channel: one access token per service account, renewed before it expires. */
// One exchange per node: the workers of a node share each token through their primary (shared-tokens.ts).
export const vertexProvider: Provider = createVertexProvider(new AccessTokenCache(sharedOnNode('vertex', fetchAccessToken)));

export { AccessTokenCache, fetchAccessToken, type AccessToken, type TokenFetcher } from './token.js';
export { parseServiceAccount, type ServiceAccount } from './key.js';
export { regionFor, regionHost } from './region.js';
export { vertexClaudeModel } from './model-name.js';
export { buildVertexRequest, VERTEX_ANTHROPIC_VERSION } from './request.js';
export { parseVertexError } from './errors.js';
