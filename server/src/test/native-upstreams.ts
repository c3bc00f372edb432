import { startBaiduMock, type BaiduMock } from './mocks/baidu.js';
import { startBedrockMock, type BedrockMock } from './mocks/bedrock.js';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from './mocks/claude.js';
import { startCloudflareMock, type CloudflareMock } from './mocks/cloudflare.js';
import { startCohereMock, type CohereMock } from './mocks/cohere.js';
import { GEMINI_MOCK_KEY, startGeminiMock, type GeminiMock } from './mocks/gemini.js';
import { startVertexMock, type TestServiceAccount, type VertexMock } from './mocks/vertex.js';
import { startZhipuMock, type ZhipuMock } from './mocks/zhipu.js';

/** The channel types with a wire format of their own, by the mock that plays each. */
export type NativeUpstream = 'claude' | 'gemini' | 'bedrock' | 'vertex' | 'cohere' | 'cloudflare' | 'zhipu' | 'zhipuV3' | 'baidu';

/** Credentials the Bedrock mock accepts. */
export interface AwsKey {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface NativeUpstreams {
  claude: ClaudeMock;
  gemini: GeminiMock;
  bedrock: BedrockMock;
  vertex: VertexMock;
  cohere: CohereMock;
  cloudflare: CloudflareMock;
  /** Both Zhipu APIs (v4 for type 26, v3 for type 16). */
  zhipu: ZhipuMock;
  baidu: BaiduMock;
  /** The console fields of a channel that reaches each mock with a key it accepts (models left to the test). */
  channels: Record<NativeUpstream, Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts one mock of each native channel type; Vertex trusts `account`, Bedrock `aws`, Vertex channels use us-east5. */
export async function startNativeUpstreams(opts: { account: TestServiceAccount; aws: AwsKey; modelsPageLimit?: number }): Promise<NativeUpstreams> {
  const { account, aws } = opts;
  const pages = opts.modelsPageLimit === undefined ? {} : { modelsPageLimit: opts.modelsPageLimit };
  const [claude, gemini, bedrock, vertex, cohere, cloudflare, zhipu, baidu] = await Promise.all([
    startClaudeMock(),
    startGeminiMock(),
    startBedrockMock(aws),
    startVertexMock({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail, projectId: account.projectId }),
    startCohereMock(pages),
    startCloudflareMock(pages),
    startZhipuMock(),
    startBaiduMock(),
  ]);
  return {
    claude,
    gemini,
    bedrock,
    vertex,
    cohere,
    cloudflare,
    zhipu,
    baidu,
    channels: {
      claude: { type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY },
      gemini: { type: 24, base_url: gemini.url, key: GEMINI_MOCK_KEY },
      bedrock: { type: 33, base_url: bedrock.url, key: `${aws.accessKeyId}|${aws.secretAccessKey}|${aws.region}` },
      vertex: { type: 41, base_url: vertex.url, key: account.key(`${vertex.url}/token`), other: 'us-east5' },
      cohere: { type: 34, base_url: cohere.url, key: cohere.key },
      cloudflare: { type: 39, base_url: cloudflare.url, key: cloudflare.key, other: cloudflare.accountId },
      zhipu: { type: 26, base_url: zhipu.url, key: zhipu.keys[0] },
      zhipuV3: { type: 16, base_url: zhipu.url, key: zhipu.keys[0] },
      baidu: { type: 15, base_url: baidu.url, key: `${Object.keys(baidu.apps)[0]}|${Object.values(baidu.apps)[0]}` },
    },
    close: async () => {
      await Promise.all([claude, gemini, bedrock, vertex, cohere, cloudflare, zhipu, baidu].map((m) => m.close()));
    },
  };
}
