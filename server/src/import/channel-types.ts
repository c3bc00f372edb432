import { CHANNEL_TYPE as T, channelType } from '@switchyard/shared';

/*
 * Our channel type codes are new-api's. one-api numbers differently after 3 (its list is an iota in
 * relay/channeltype/define.go), so its codes are mapped by what they name. null: a kind we have no code for.
 */
const ONE_API_TYPES: Readonly<Record<number, number | null>> = {
  0: T.UNKNOWN, 1: T.OPENAI, 2: null /* API2D */, 3: T.AZURE, 4: null /* CloseAI */, 5: null /* OpenAI-SB */,
  6: null /* OpenAIMax */, 7: null /* OhMyGPT */, 8: T.CUSTOM, 9: null /* Ails */, 10: null /* AIProxy */, 11: T.PALM,
  12: null /* API2GPT */, 13: null /* AIGC2D */, 14: T.ANTHROPIC, 15: T.BAIDU, 16: T.ZHIPU, 17: T.ALI, 18: T.XUNFEI,
  19: T.AI360, 20: T.OPENROUTER, 21: T.AIPROXY_LIBRARY, 22: T.FASTGPT, 23: T.TENCENT, 24: T.GEMINI, 25: T.MOONSHOT,
  26: null /* Baichuan */, 27: T.MINIMAX, 28: T.MISTRAL, 29: null /* Groq */, 30: T.OLLAMA, 31: T.LINGYIWANWU,
  32: null /* StepFun */, 33: T.AWS, 34: null /* Coze */, 35: T.COHERE, 36: T.DEEPSEEK, 37: T.CLOUDFLARE,
  38: null /* DeepL */, 39: null /* TogetherAI */, 40: T.VOLCENGINE /* Doubao */, 41: null /* Novita */,
  42: T.VERTEX_AI, 43: null /* Proxy */, 44: T.SILICONFLOW, 45: T.XAI, 46: null /* Replicate */, 47: T.BAIDU_V2,
  48: null /* XunfeiV2 */, 49: null /* AliBailian */, 50: null /* OpenAICompatible */, 51: null /* GeminiOpenAICompatible */,
};

export interface MappedType {
  type: number;
  /** Why the channel comes in disabled: a type we do not serve (yet). */
  unsupported?: string;
}

export function mapChannelType(system: 'new-api' | 'one-api', sourceType: number): MappedType {
  const mapped = system === 'one-api' ? ONE_API_TYPES[sourceType] : sourceType;
  if (mapped === undefined || mapped === null || mapped === T.UNKNOWN || !channelType(mapped)) {
    return { type: mapped ?? T.UNKNOWN, unsupported: `${system} channel type ${sourceType} is not served` };
  }
  return { type: mapped };
}
