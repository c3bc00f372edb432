/*
 * Channel type codes (spec §3), with the name shown in the console, the upstream's default base URL, whether the
 * upstream speaks the OpenAI wire format (model list at {base}/v1/models, Bearer key), and the default model list
 * the channel form offers for a new channel of that type.
 */

export const CHANNEL_TYPE = {
  UNKNOWN: 0,
  OPENAI: 1,
  MIDJOURNEY: 2,
  AZURE: 3,
  OLLAMA: 4,
  MIDJOURNEY_PLUS: 5,
  OPENAI_MAX: 6,
  OHMYGPT: 7,
  CUSTOM: 8,
  AILS: 9,
  AIPROXY: 10,
  PALM: 11,
  API2GPT: 12,
  AIGC2D: 13,
  ANTHROPIC: 14,
  BAIDU: 15,
  ZHIPU: 16,
  ALI: 17,
  XUNFEI: 18,
  AI360: 19,
  OPENROUTER: 20,
  AIPROXY_LIBRARY: 21,
  FASTGPT: 22,
  TENCENT: 23,
  GEMINI: 24,
  MOONSHOT: 25,
  ZHIPU_V4: 26,
  PERPLEXITY: 27,
  LINGYIWANWU: 31,
  AWS: 33,
  COHERE: 34,
  MINIMAX: 35,
  SUNO: 36,
  DIFY: 37,
  JINA: 38,
  CLOUDFLARE: 39,
  SILICONFLOW: 40,
  VERTEX_AI: 41,
  MISTRAL: 42,
  DEEPSEEK: 43,
  MOKAAI: 44,
  VOLCENGINE: 45,
  BAIDU_V2: 46,
  XINFERENCE: 47,
  XAI: 48,
} as const;

export interface ChannelTypeInfo {
  value: number;
  name: string;
  /** Used when the channel's base_url is empty; '' when the operator must give one. */
  baseUrl: string;
  /** Speaks OpenAI's wire format: /v1/models, /v1/chat/completions with a Bearer key. */
  openaiFormat: boolean;
  /** Models offered for a new channel of this type. */
  models: readonly string[];
  /** What the channel key looks like, shown under the key field, for types whose key is not a plain API key. */
  keyHint?: string;
}

const OPENAI_MODELS = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'o1',
  'o3',
  'o3-mini',
  'o4-mini',
  'chatgpt-4o-latest',
  'gpt-4-turbo',
  'gpt-3.5-turbo',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
  'text-moderation-latest',
  'dall-e-3',
  'whisper-1',
  'tts-1',
  'tts-1-hd',
] as const;

const CLAUDE_MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-1-20250805',
  'claude-opus-4-20250514',
  'claude-sonnet-4-20250514',
  'claude-3-7-sonnet-20250219',
  'claude-3-5-sonnet-20241022',
  'claude-3-5-haiku-20241022',
  'claude-3-opus-20240229',
  'claude-3-haiku-20240307',
] as const;

const GEMINI_MODELS = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
  'gemini-1.5-pro',
  'gemini-1.5-flash',
  'text-embedding-004',
  'imagen-3.0-generate-002',
] as const;

const MIDJOURNEY_MODELS = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_upscale',
  'mj_describe',
  'mj_zoom',
  'mj_custom_zoom',
  'mj_shorten',
  'mj_modal',
  'mj_inpaint',
  'mj_high_variation',
  'mj_low_variation',
  'mj_pan',
  'mj_upload',
  'swap_face',
] as const;

const t = (value: number, name: string, baseUrl: string, openaiFormat: boolean, models: readonly string[], keyHint?: string): ChannelTypeInfo =>
  keyHint === undefined ? { value, name, baseUrl, openaiFormat, models } : { value, name, baseUrl, openaiFormat, models, keyHint };

const T = CHANNEL_TYPE;

const ZHIPU_KEY_HINT = '格式：id.secret（智谱开放平台的 API Key 原样填写，调用时由它签出访问令牌）。';

/** Every selectable type, in the order the channel form lists them. */
export const CHANNEL_TYPES: readonly ChannelTypeInfo[] = [
  t(T.OPENAI, 'OpenAI', 'https://api.openai.com', true, OPENAI_MODELS),
  t(T.MIDJOURNEY, 'Midjourney Proxy', 'https://oa.api2d.net', false, MIDJOURNEY_MODELS),
  t(T.MIDJOURNEY_PLUS, 'Midjourney Proxy Plus', 'https://api.openai-sb.com', false, MIDJOURNEY_MODELS),
  t(T.SUNO, 'Suno API', '', false, ['suno_music', 'suno_lyrics']),
  t(T.OLLAMA, 'Ollama', 'http://localhost:11434', true, ['llama3.3', 'llama3.2', 'llama3.1', 'qwen3', 'qwen2.5', 'deepseek-r1', 'gemma3', 'mistral', 'nomic-embed-text'], 'Ollama 本身不校验密钥：直连时可任意填写；前面有鉴权代理时填写代理要求的 Bearer 密钥。'),
  t(T.ANTHROPIC, 'Anthropic Claude', 'https://api.anthropic.com', false, CLAUDE_MODELS),
  t(T.AWS, 'AWS Claude', '', false, CLAUDE_MODELS, '格式：AccessKeyID|SecretAccessKey|Region，例如 AKIA...|wJal...|us-east-1（可在末尾追加 |SessionToken）。'),
  t(T.VERTEX_AI, 'Vertex AI', '', false, [...GEMINI_MODELS, ...CLAUDE_MODELS], 'Vertex AI 的密钥是服务账号的 JSON 密钥文件内容（整段 JSON）。'),
  t(T.AZURE, 'Azure OpenAI', '', false, OPENAI_MODELS),
  t(T.GEMINI, 'Google Gemini', 'https://generativelanguage.googleapis.com', false, GEMINI_MODELS),
  t(T.COHERE, 'Cohere', 'https://api.cohere.ai', false, ['command-a-03-2025', 'command-r-plus', 'command-r', 'command-r7b-12-2024', 'embed-multilingual-v3.0', 'embed-english-v3.0', 'rerank-multilingual-v3.0', 'rerank-english-v3.0']),
  t(
    T.BAIDU,
    '百度文心千帆',
    'https://aip.baidubce.com',
    false,
    ['ERNIE-4.0-8K', 'ERNIE-4.0-Turbo-8K', 'ERNIE-3.5-8K', 'ERNIE-3.5-128K', 'ERNIE-Speed-128K', 'ERNIE-Speed-8K', 'ERNIE-Lite-8K', 'ERNIE-Tiny-8K', 'ERNIE-Character-8K', 'ERNIE-Functions-8K', 'Embedding-V1', 'bge-large-zh', 'bge-large-en', 'tao-8k'],
    '格式：APIKey|SecretKey（千帆 v1 应用的 API Key 与 Secret Key，用竖线分隔）。',
  ),
  t(
    T.BAIDU_V2,
    '百度千帆 V2',
    'https://qianfan.baidubce.com',
    true,
    ['ernie-4.5-turbo-128k', 'ernie-4.5-turbo-32k', 'ernie-x1-turbo-32k', 'ernie-4.0-turbo-8k', 'ernie-3.5-8k', 'ernie-speed-128k', 'ernie-lite-8k', 'deepseek-v3', 'deepseek-r1', 'embedding-v1', 'bge-large-zh'],
    '千帆 V2 的 API Key（bce-v3/ALTAK-...）；需要指定应用时写成 API Key|AppID。',
  ),
  t(T.ALI, '阿里通义千问', 'https://dashscope.aliyuncs.com', false, ['qwen-max', 'qwen-plus', 'qwen-turbo', 'qwen-long', 'qwen3-235b-a22b', 'qwen3-32b', 'qwen-vl-max', 'text-embedding-v4', 'text-embedding-v3', 'wanx2.1-t2i-turbo', 'wanx2.1-t2i-plus', 'wanx-v1'], '阿里云百炼（DashScope）的 API Key，例如 sk-xxxx。'),
  t(T.XUNFEI, '讯飞星火认知', 'wss://spark-api.xf-yun.com', false, ['SparkDesk-v4.0', 'SparkDesk-v3.5', 'SparkDesk-max-32k', 'SparkDesk-v3.1', 'SparkDesk-pro-128k', 'SparkDesk-v2.1', 'SparkDesk-v1.1'], '格式：APPID|APISecret|APIKey，例如 1a2b3c4d|MjlmNzkz...|addd2272...（在讯飞开放平台控制台的应用中查看）。'),
  t(T.ZHIPU, '智谱 ChatGLM', 'https://open.bigmodel.cn', false, ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite'], ZHIPU_KEY_HINT),
  t(
    T.ZHIPU_V4,
    '智谱 GLM-4V',
    'https://open.bigmodel.cn',
    false,
    ['glm-4.5', 'glm-4.5-air', 'glm-4-plus', 'glm-4', 'glm-4-air', 'glm-4-flash', 'glm-4v', 'glm-4v-plus', 'glm-4v-flash', 'embedding-3', 'embedding-2'],
    ZHIPU_KEY_HINT,
  ),
  t(T.PALM, 'Google PaLM2', 'https://generativelanguage.googleapis.com', false, ['chat-bison-001']),
  t(T.CLOUDFLARE, 'Cloudflare', 'https://api.cloudflare.com', false, ['@cf/meta/llama-3.3-70b-instruct-fp8-fast', '@cf/meta/llama-3.1-8b-instruct', '@cf/qwen/qwen2.5-coder-32b-instruct', '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b', '@cf/baai/bge-m3']),
  t(T.MOONSHOT, 'Moonshot', 'https://api.moonshot.cn', true, ['kimi-k2-0711-preview', 'moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k', 'moonshot-v1-auto']),
  t(T.AI360, '360 智脑', 'https://api.360.cn', true, ['360gpt2-pro', '360gpt-pro', '360gpt-turbo', '360gpt-turbo-responsibility-8k', 'embedding-bert-512-v1']),
  t(T.TENCENT, '腾讯混元', 'https://hunyuan.tencentcloudapi.com', false, ['hunyuan-turbos-latest', 'hunyuan-t1-latest', 'hunyuan-turbo', 'hunyuan-large', 'hunyuan-standard', 'hunyuan-lite', 'hunyuan-functioncall', 'hunyuan-vision'], '格式：AppId|SecretId|SecretKey，例如 1300000000|AKIDxxxx|xxxx（在腾讯云访问管理中创建 API 密钥）。'),
  t(T.LINGYIWANWU, '零一万物', 'https://api.lingyiwanwu.com', true, ['yi-lightning', 'yi-large', 'yi-medium', 'yi-spark', 'yi-vision']),
  t(T.MINIMAX, 'MiniMax', 'https://api.minimax.chat', false, ['MiniMax-M1', 'MiniMax-Text-01', 'abab6.5s-chat', 'abab6.5g-chat', 'embo-01']),
  t(T.DIFY, 'Dify', 'https://api.dify.ai', false, ['dify'], 'Dify 应用的 API 密钥（app-xxxx），一个密钥对应一个应用。对话会拼成一条 query 发送；在渠道设置中填写 {"show_workflow_events": true} 可把工作流进度作为思考内容返回。'),
  t(T.JINA, 'Jina', 'https://api.jina.ai', false, ['jina-embeddings-v3', 'jina-clip-v2', 'jina-reranker-v2-base-multilingual', 'jina-colbert-v2']),
  t(T.SILICONFLOW, 'SiliconCloud', 'https://api.siliconflow.cn', true, ['deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'Qwen/Qwen3-235B-A22B', 'Qwen/Qwen2.5-72B-Instruct', 'Qwen/Qwen2.5-7B-Instruct', 'BAAI/bge-m3', 'BAAI/bge-reranker-v2-m3']),
  t(T.DEEPSEEK, 'DeepSeek', 'https://api.deepseek.com', true, ['deepseek-chat', 'deepseek-reasoner']),
  t(T.MISTRAL, 'Mistral AI', 'https://api.mistral.ai', true, ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'magistral-medium-latest', 'magistral-small-latest', 'codestral-latest', 'pixtral-large-latest', 'ministral-8b-latest', 'open-mistral-nemo', 'mistral-embed']),
  t(T.XAI, 'xAI', 'https://api.x.ai', true, ['grok-4', 'grok-4-fast-reasoning', 'grok-4-fast-non-reasoning', 'grok-code-fast-1', 'grok-3', 'grok-3-mini', 'grok-2-vision-1212', 'grok-2-image-1212']),
  t(T.OPENROUTER, 'OpenRouter', 'https://openrouter.ai/api', true, ['openai/gpt-4o', 'openai/gpt-4o-mini', 'openai/gpt-5', 'anthropic/claude-sonnet-4', 'google/gemini-2.5-pro', 'google/gemini-2.5-flash', 'deepseek/deepseek-chat', 'deepseek/deepseek-r1', 'x-ai/grok-4', 'meta-llama/llama-3.3-70b-instruct'], 'OpenRouter 的 API Key，例如 sk-or-v1-xxxx。'),
  t(T.PERPLEXITY, 'Perplexity', 'https://api.perplexity.ai', true, ['sonar', 'sonar-pro', 'sonar-reasoning', 'sonar-reasoning-pro', 'sonar-deep-research']),
  t(
    T.VOLCENGINE,
    '字节火山方舟 / 豆包',
    'https://ark.cn-beijing.volces.com',
    false,
    ['doubao-seed-1-6-250615', 'doubao-seed-1-6-thinking-250715', 'doubao-seed-1-6-flash-250715', 'doubao-1-5-pro-32k-250115', 'doubao-1-5-lite-32k-250115', 'doubao-1-5-vision-pro-32k-250115', 'deepseek-r1-250528', 'deepseek-v3-250324', 'doubao-embedding-text-240715', 'doubao-seedream-3-0-t2i-250415'],
    '火山方舟的 API Key；模型名可填推理接入点 ID（ep-...），应用（智能体）填 bot-... ID。',
  ),
  t(T.MOKAAI, 'MokaAI M3E', 'https://api.moka.ai', false, ['m3e-large', 'm3e-base', 'm3e-small']),
  t(T.XINFERENCE, 'Xinference', '', true, []),
  t(T.CUSTOM, '自定义渠道', '', true, OPENAI_MODELS),
  t(T.AIPROXY, 'AI Proxy', 'https://api.aiproxy.io', true, OPENAI_MODELS),
  t(T.API2GPT, 'API2GPT', 'https://api.api2gpt.com', true, OPENAI_MODELS),
  t(T.AIGC2D, 'AIGC2D', 'https://api.aigc2d.com', true, OPENAI_MODELS),
  t(T.OPENAI_MAX, 'OpenAIMax', 'https://api.openaimax.com', true, OPENAI_MODELS),
  t(T.OHMYGPT, 'OhMyGPT', 'https://api.ohmygpt.com', true, OPENAI_MODELS),
  t(T.AILS, 'AILS', 'https://api.caipacity.com', true, OPENAI_MODELS),
  t(T.FASTGPT, 'FastGPT', 'https://fastgpt.run/api/openapi', true, []),
  t(T.AIPROXY_LIBRARY, '知识库：AI Proxy', 'https://api.aiproxy.io', false, ['gpt-3.5-turbo', 'gpt-3.5-turbo-16k', 'gpt-4', 'gpt-4o-mini'], 'AI Proxy 的 API Key；知识库 ID（libraryId）填写在"其他参数"中。每次只以最后一条用户消息提问。'),
];

const BY_CODE: ReadonlyMap<number, ChannelTypeInfo> = new Map(CHANNEL_TYPES.map((info) => [info.value, info]));

/** The type's description, or undefined for unknown codes (0 and anything unlisted). */
export const channelType = (type: number): ChannelTypeInfo | undefined => BY_CODE.get(type);

export const channelTypeName = (type: number): string => BY_CODE.get(type)?.name ?? '未知类型';

/** The upstream used when a channel's base_url is empty ('' when the type has none). */
export const defaultBaseUrl = (type: number): string => BY_CODE.get(type)?.baseUrl ?? '';

export const isOpenAIFormat = (type: number): boolean => BY_CODE.get(type)?.openaiFormat ?? false;

export const defaultModels = (type: number): readonly string[] => BY_CODE.get(type)?.models ?? [];

/** Types whose channels are not chat models, so the channel test does not apply to them. */
export const UNTESTABLE_CHANNEL_TYPES: readonly number[] = [T.MIDJOURNEY, T.MIDJOURNEY_PLUS, T.SUNO];

/** `other` defaults for a new channel when left empty: Azure's API version, iFlytek's Spark version. */
export const CHANNEL_OTHER_DEFAULTS: Readonly<Record<number, string>> = { [T.AZURE]: '2024-06-01-preview', [T.XUNFEI]: 'v2.1' };

export const CHANNEL_STATUS_NAMES: Readonly<Record<number, string>> = { 1: '已启用', 2: '已禁用', 3: '自动禁用' };
export const channelStatusName = (status: number): string => CHANNEL_STATUS_NAMES[status] ?? '未知状态';
