import type { Provider, WireCodec, WireFormat } from '../types.js';
import { aiProxyLibraryProvider } from './aiproxy-library/index.js';
import { awsProvider } from './aws/index.js';
import { baiduProvider } from './baidu/index.js';
import { baiduV2Provider } from './baidu-v2/index.js';
import { azureProvider } from './azure/index.js';
import { claudeProvider } from './claude/provider.js';
import { claudeWire } from './claude/wire.js';
import { cloudflareProvider } from './cloudflare/index.js';
import { cohereProvider } from './cohere/index.js';
import { cohereWire } from './cohere/wire.js';
import { dashScopeProvider } from './dashscope/index.js';
import { deepSeekProvider } from './deepseek/index.js';
import { difyProvider } from './dify/index.js';
import { geminiProvider } from './gemini/provider.js';
import { geminiWire } from './gemini/wire.js';
import { hunyuanProvider } from './hunyuan/index.js';
import { jinaProvider } from './jina/index.js';
import { minimaxProvider } from './minimax/index.js';
import { mistralProvider } from './mistral/index.js';
import { openAIProvider } from './openai/index.js';
import { openAIWire, responsesWire } from './openai/wire.js';
import { openRouterProvider } from './openrouter/index.js';
import { perplexityProvider } from './perplexity/index.js';
import { ollamaProvider } from './ollama/index.js';
import { palmProvider } from './palm/index.js';
import { sparkProvider } from './spark/index.js';
import { vertexProvider } from './vertex/index.js';
import { volcEngineProvider } from './volcengine/index.js';
import { xaiProvider } from './xai/index.js';
import { zhipuProvider, zhipuV4Provider } from './zhipu/index.js';

/** Every upstream family. Adding a provider is adding its folder and one line here. */
const PROVIDERS: readonly Provider[] = [
  openAIProvider, azureProvider, minimaxProvider, claudeProvider, awsProvider, geminiProvider, vertexProvider, cohereProvider, cloudflareProvider,
  dashScopeProvider, hunyuanProvider, zhipuProvider, zhipuV4Provider, baiduProvider, sparkProvider,
  mistralProvider, deepSeekProvider, volcEngineProvider, baiduV2Provider, xaiProvider, openRouterProvider, perplexityProvider,
  difyProvider, jinaProvider, ollamaProvider, palmProvider, aiProxyLibraryProvider,
];

const byType = new Map<number, Provider>();
for (const p of PROVIDERS) for (const t of p.types) byType.set(t, p);

/** The provider serving a channel type; types without their own folder speak OpenAI's format. */
export function providerFor(type: number): Provider {
  return byType.get(type) ?? openAIProvider;
}

/** The codec of each upstream body format. */
const WIRES: Partial<Record<WireFormat, WireCodec>> = {
  openai: openAIWire,
  claude: claudeWire,
  gemini: geminiWire,
  responses: responsesWire,
  cohere: cohereWire,
};
for (const p of PROVIDERS) for (const codec of p.codecs ?? []) WIRES[codec.format] = codec;

export function wireCodec(format: WireFormat): WireCodec {
  const codec = WIRES[format];
  if (!codec) throw new Error(`no codec for wire format ${format}`);
  return codec;
}
