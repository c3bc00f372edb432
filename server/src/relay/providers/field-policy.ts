import { RelayError } from '../errors.js';
import type { ChatRequest } from '../formats/openai/chat.js';

/*
 * What a wire codec does with each field of the canonical request: maps it, ignores it (a hint with no effect on the
 * answer, said so in docs/field-mapping.md), or refuses it with a 400 when the client asked for something the target
 * cannot do. A field no rule names is refused too: nothing the client sent is dropped without a word. The same
 * tables print the field table in the docs (field-audit.ts).
 */

export type FieldRule =
  | { kind: 'mapped'; to: string }
  | { kind: 'ignored'; why: string }
  /** Refused when present, unless `allows` accepts the value (the default, which asks for nothing). */
  | { kind: 'refused'; when: string; allows?: (value: unknown) => boolean };

export interface WirePolicy {
  /** How refusals name the target. */
  target: string;
  /** Top-level fields of the canonical request. */
  fields: Readonly<Record<string, FieldRule>>;
  /** Content part types (messages[].content[].type). */
  parts: Readonly<Record<string, FieldRule>>;
  /** Tool types (tools[].type). */
  tools: Readonly<Record<string, FieldRule>>;
  /** Fields of a message (for the field table; none of them is refused). */
  message: Readonly<Record<string, FieldRule>>;
}

export const mapped = (to: string): FieldRule => ({ kind: 'mapped', to });
export const ignored = (why: string): FieldRule => ({ kind: 'ignored', why });
export const refused = (when: string, allows?: (value: unknown) => boolean): FieldRule => ({ kind: 'refused', when, allows });

/** Values that ask for nothing beyond the default. */
export const only = (...values: unknown[]) => (v: unknown) => values.some((d) => JSON.stringify(d) === JSON.stringify(v));
export const emptyObject = (v: unknown) => !!v && typeof v === 'object' && Object.keys(v).length === 0;

/** Fields of OpenAI's chat request that only concern OpenAI's own service and never change an answer. */
export const OPENAI_SERVICE_FIELDS: Readonly<Record<string, FieldRule>> = {
  store: ignored('OpenAI 侧的存储开关'),
  metadata: ignored('OpenAI 侧存储的标签'),
  service_tier: ignored('OpenAI 的服务档位'),
  prompt_cache_key: ignored('OpenAI 的缓存提示'),
  prompt_cache_retention: ignored('OpenAI 的缓存提示'),
  safety_identifier: ignored('OpenAI 的滥用监测标识'),
  prediction: ignored('预测输出只影响速度，不影响答案'),
  stream_options: ignored('流式用量总会向上游索取并报告'),
};

/**
 * The refusals of a wire that answers one choice of plain text and nothing else of OpenAI's (no logprobs, no audio,
 * no logit bias, no verbosity), worded with the wire's name; with the parts and history fields it cannot take.
 */
export function textOnlyRules(name: string): Pick<WirePolicy, 'fields' | 'parts' | 'message'> {
  return {
    fields: {
      n: refused(`${name}每次只生成一个回答`, only(1)),
      logprobs: refused('此转换不返回 logprobs', only(false)),
      top_logprobs: refused('此转换不返回 logprobs', only(0)),
      logit_bias: refused(`${name}没有 logit_bias`, emptyObject),
      modalities: refused(`${name}只输出文本`, only(['text'])),
      audio: refused(`${name}不输出音频`),
      verbosity: ignored(`${name}没有 verbosity（回答详略的提示）`),
      seed: refused(`${name}没有 seed`),
      top_k: refused(`${name}没有 top_k`),
    },
    parts: {
      refusal: ignored('上一轮回答中的拒答文本'),
      input_audio: refused(`${name}不接受音频输入`),
      file: refused(`${name}不接受文件输入`),
    },
    message: {
      reasoning_content: ignored(`${name}不接收历史中的思考`),
      reasoning_signature: ignored(`${name}不接收历史中的思考`),
    },
  };
}

const refuse = (message: string) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');

const present = (v: unknown) => v !== undefined && v !== null;

/** Ignored fields the gateway itself set on the canonical request (the client did not ask for them). */
const SILENT = new Set(['stream_options']);

function check(rule: FieldRule | undefined, value: unknown, name: string, target: string): void {
  if (!rule) throw refuse(`${target} 渠道不支持参数 ${name}`);
  if (rule.kind === 'refused' && !rule.allows?.(value)) throw refuse(`${target} 渠道不支持参数 ${name}：${rule.when}`);
}

/**
 * Refuses (400) the first field, content part or tool of a canonical request the wire cannot honour; the top-level
 * fields it ignores (hints the target has no use for) are added to `dropped`, for the answer to name.
 */
export function checkCanonical(req: ChatRequest, policy: WirePolicy, dropped?: string[]): void {
  for (const key in req) {
    const value = req[key];
    if (!present(value)) continue;
    const rule = policy.fields[key];
    check(rule, value, key, policy.target);
    if (dropped && rule?.kind === 'ignored' && !SILENT.has(key)) dropped.push(key);
  }
  for (const m of req.messages ?? []) {
    if (!Array.isArray(m?.content)) continue;
    for (const part of m.content) check(policy.parts[String(part?.type)], part, `messages[].content[].type=${String(part?.type)}`, policy.target);
  }
  for (const t of req.tools ?? []) check(policy.tools[String(t?.type)], t, `tools[].type=${String(t?.type)}`, policy.target);
}
