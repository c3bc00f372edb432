import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPE } from '@switchyard/shared';
import { attemptOn, clientCall, routedChannel } from '../test/provider-calls.js';
import { RelayError } from './errors.js';
import { isSafePathSegment, pathSegment } from './path-segment.js';
import { bedrockUrl } from './providers/aws/request.js';
import { baiduUrl } from './providers/baidu/index.js';
import { cloudflareUrl } from './providers/cloudflare/index.js';
import { geminiCountTokensUrl, geminiEmbedUrl, geminiUrl } from './providers/gemini/index.js';
import { providerFor } from './providers/index.js';
import { openAIUrl } from './providers/openai/index.js';
import type { ServiceAccount } from './providers/vertex/key.js';
import { buildVertexRequest } from './providers/vertex/request.js';
import { zhipuV3Url } from './providers/zhipu/index.js';
import type { UpstreamRequest } from './types.js';

/*
 * Every upstream URL a provider builds from a model name (or another value of the call) keeps it in its one
 * segment: whatever the name holds, the URL has the same path segments and query keys as with a plain name, the
 * name's segment decodes back to it, and a name made only of dots is refused before any URL exists.
 */

const HOSTILE = ['a/../../b', '../../v1/files', 'x?alt=media&key=1', 'x#frag', 'a%2Fb', '%2e%2e', '.%2E', 'a\\..\\b', 'sp ace', '模型'];
const REFUSED = ['', '.', '..', 'a\nb', 'a\u0000b'];

const refusal = (run: () => unknown): RelayError | null => {
  try {
    run();
    return null;
  } catch (err) {
    return err instanceof RelayError ? err : null;
  }
};

const PLAIN = 'plainname';

/** The URL for `name` has the plain URL's shape, with `name` (as `shown`) decoded from the segment where the plain name was. */
function expectOneSegment(build: (name: string) => string, name: string, shown: (name: string) => string): void {
  const plain = PLAIN;
  const reference = new URL(build(plain));
  const url = new URL(build(name));
  expect(url.origin, name).toBe(reference.origin);
  expect(url.hash, name).toBe('');
  expect([...url.searchParams.keys()], name).toEqual([...reference.searchParams.keys()]);
  const segments = url.pathname.split('/');
  const expected = reference.pathname.split('/');
  expect(segments.length, `${name} -> ${url.pathname}`).toBe(expected.length);
  const at = expected.findIndex((s) => s.includes(plain));
  segments.forEach((s, i) => {
    if (i === at) expect(decodeURIComponent(s), name).toBe(expected[i].replace(plain, shown(name)));
    else expect(s, name).toBe(expected[i]);
  });
}

describe('pathSegment', () => {
  it('encodes a value into one segment, keeping only the characters asked for', () => {
    expect(pathSegment('gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(pathSegment('a/b?c#d%e')).toBe('a%2Fb%3Fc%23d%25e');
    expect(pathSegment('claude-3@20240229', '@')).toBe('claude-3@20240229');
    expect(pathSegment('claude-3@20240229')).toBe('claude-3%4020240229');
  });

  it('refuses values no encoding keeps in one segment, with a 400 of the gateway’s own', () => {
    for (const value of REFUSED) {
      expect(isSafePathSegment(value), JSON.stringify(value)).toBe(false);
      const err = refusal(() => pathSegment(value));
      expect(err, JSON.stringify(value)).toMatchObject({ status: 400, code: 'invalid_path_segment', local: true });
    }
    // A long value is not repeated whole in the message.
    expect(refusal(() => pathSegment(`${'x'.repeat(500)}\n`))!.message.length).toBeLessThan(120);
  });
});

describe('provider URLs built from a model name', () => {
  const builders: Record<string, (name: string) => string> = {
    'Gemini generateContent': (m) => geminiUrl('https://g.example', 'v1beta', m, true),
    'Gemini embeddings': (m) => geminiEmbedUrl('https://g.example', 'v1beta', m),
    'Gemini countTokens': (m) => geminiCountTokensUrl('https://g.example', 'v1beta', m),
    'Bedrock invoke': (m) => bedrockUrl('', 'us-east-1', m, false),
    'Zhipu v3': (m) => zhipuV3Url('https://open.bigmodel.cn', m, true),
    'Baidu endpoint': (m) => baiduUrl('https://aip.baidubce.com', 'chat', m, 'token'),
    'Cloudflare account': (id) => cloudflareUrl('https://api.cloudflare.com', id, 'chat'),
    'custom {model}': (m) => openAIUrl('https://gw.example/deploy/{model}/chat', 'chat', m),
    'Azure deployment': (m) => (providerFor(CHANNEL_TYPE.AZURE).build(attemptOn(providerFor(CHANNEL_TYPE.AZURE), clientCall(m), routedChannel(CHANNEL_TYPE.AZURE, 'k', { baseUrl: 'https://az.example' }))) as UpstreamRequest).url,
    'PaLM model': (m) => (providerFor(CHANNEL_TYPE.PALM).build(attemptOn(providerFor(CHANNEL_TYPE.PALM), clientCall(m), routedChannel(CHANNEL_TYPE.PALM, 'k'))) as UpstreamRequest).url,
    'Vertex model': (m) => {
      const sa = { projectId: 'proj' } as ServiceAccount;
      return buildVertexRequest(attemptOn(providerFor(CHANNEL_TYPE.VERTEX_AI), clientCall(m), routedChannel(CHANNEL_TYPE.VERTEX_AI, 'k', { other: 'us-central1' })), sa, 'token').url;
    },
  };

  for (const [name, build] of Object.entries(builders)) {
    it(`${name}: a hostile name stays one segment, a dot segment is refused`, () => {
      // Baidu lowercases names it does not know; Azure takes the dots out of a deployment name.
      const shown = (m: string) => (name === 'Baidu endpoint' ? m.toLowerCase() : name === 'Azure deployment' ? m.replaceAll('.', '') : m);
      for (const model of HOSTILE) expectOneSegment(build, model, shown);
      for (const model of REFUSED) {
        expect(refusal(() => build(model)), `${name}: ${JSON.stringify(model)}`).toMatchObject({ code: 'invalid_path_segment' });
      }
    });
  }
});
