import type { GeminiLogprobsResult } from './logprobs.js';

/*
 * Google's Gemini API (generativelanguage v1beta) wire shapes, as far as the converters use them. Field names are
 * the REST JSON names (camelCase).
 */

export type GeminiRole = 'user' | 'model';

export interface GeminiFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  id?: string;
}

export interface GeminiFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  id?: string;
}

export interface GeminiPart {
  text?: string;
  /** A thought summary part (thinking models with includeThoughts). */
  thought?: boolean;
  /** Opaque; must travel back to Gemini byte for byte. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role?: GeminiRole;
  parts: GeminiPart[];
}

/** OpenAPI-subset schema Gemini accepts for function parameters and responseSchema. */
export type GeminiSchema = Record<string, unknown>;

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  [key: string]: unknown;
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiToolConfig {
  functionCallingConfig?: { mode?: GeminiFunctionCallingMode; allowedFunctionNames?: string[] };
}

export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: string;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: GeminiSchema;
  responseJsonSchema?: Record<string, unknown>;
  responseLogprobs?: boolean;
  /** Top candidates returned per step (with responseLogprobs). */
  logprobs?: number;
  thinkingConfig?: GeminiThinkingConfig;
  [key: string]: unknown;
}

export interface GeminiSafetySetting {
  category: string;
  threshold: string;
}

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: GeminiSafetySetting[];
  cachedContent?: string;
}

export interface GeminiSafetyRating {
  category: string;
  probability: string;
  blocked?: boolean;
}

export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  safetyRatings?: GeminiSafetyRating[];
  index?: number;
  logprobsResult?: GeminiLogprobsResult;
  avgLogprobs?: number;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** A generateContent answer; in a stream every SSE event carries one partial GenerateContentResponse. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; safetyRatings?: GeminiSafetyRating[] };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string };
}

export interface GeminiEmbedContentRequest {
  model?: string;
  content: GeminiContent;
  taskType?: string;
  title?: string;
  outputDimensionality?: number;
}

export interface GeminiBatchEmbedRequest {
  requests: GeminiEmbedContentRequest[];
}

export interface GeminiBatchEmbedResponse {
  embeddings: Array<{ values: number[] }>;
}

export interface GeminiModel {
  name: string;
  baseModelId?: string;
  version: string;
  displayName: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods: string[];
}

export interface GeminiModelList {
  models: GeminiModel[];
  nextPageToken?: string;
}
