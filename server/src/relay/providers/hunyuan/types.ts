/** Tencent Hunyuan's ChatCompletions bodies (API version 2023-09-01), as far as the conversions use them. */

declare module '../../types.js' {
  interface ProviderWires {
    hunyuan: true;
  }
}

export interface HunyuanToolCall {
  Id?: string;
  Type?: string;
  Index?: number;
  Function?: { Name?: string; Arguments?: string };
}

export interface HunyuanContent {
  Type: 'text' | 'image_url';
  Text?: string;
  ImageUrl?: { Url: string };
}

export interface HunyuanMessage {
  Role: 'system' | 'user' | 'assistant' | 'tool';
  Content?: string;
  Contents?: HunyuanContent[];
  ToolCallId?: string;
  ToolCalls?: HunyuanToolCall[];
}

export interface HunyuanTool {
  Type: 'function';
  Function: { Name: string; Description?: string; Parameters: string };
}

export interface HunyuanRequest {
  Model: string;
  Messages: HunyuanMessage[];
  Stream: boolean;
  TopP?: number;
  Temperature?: number;
  Stop?: string[];
  Seed?: number;
  Tools?: HunyuanTool[];
  ToolChoice?: 'none' | 'auto' | 'custom';
  CustomTool?: HunyuanTool;
}

export interface HunyuanUsage {
  PromptTokens?: number;
  CompletionTokens?: number;
  TotalTokens?: number;
}

export interface HunyuanChoice {
  Index?: number;
  FinishReason?: string;
  Message?: { Role?: string; Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] };
  Delta?: { Role?: string; Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] };
}

/** One answer (the `Response` of a whole answer, or one event of a stream). */
export interface HunyuanAnswer {
  Id?: string;
  Created?: number;
  Note?: string;
  Choices?: HunyuanChoice[];
  Usage?: HunyuanUsage;
  /** A failure after the answer started (4000 internal error, 4001 model timeout). */
  ErrorMsg?: { Code?: number; Msg?: string } | null;
  Error?: { Code?: string; Message?: string };
  RequestId?: string;
}

/** A whole answer: Tencent Cloud API 3.0 wraps everything, errors included, in `Response`. */
export interface HunyuanEnvelope {
  Response?: HunyuanAnswer;
}
