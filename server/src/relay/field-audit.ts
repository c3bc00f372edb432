import type { ClientField, ClientFields } from './formats/client-fields.js';
import { CLAUDE_CLIENT_FIELDS } from './formats/claude/fields.js';
import { GEMINI_CLIENT_FIELDS } from './formats/gemini/fields.js';
import { RESPONSES_CLIENT_FIELDS } from './formats/responses/fields.js';
import { CLAUDE_FIELDS } from './providers/claude/fields.js';
import { COHERE_FIELDS } from './providers/cohere/fields.js';
import type { FieldRule, WirePolicy } from './providers/field-policy.js';
import { GEMINI_FIELDS } from './providers/gemini/fields.js';
import { HUNYUAN_FIELDS } from './providers/hunyuan/fields.js';
import { LIBRARY_FIELDS } from './providers/aiproxy-library/fields.js';
import { BAIDU_FIELDS } from './providers/baidu/fields.js';
import { DIFY_FIELDS } from './providers/dify/fields.js';
import { PALM_FIELDS } from './providers/palm/fields.js';
import { SPARK_FIELDS } from './providers/spark/fields.js';
import { ZHIPU_V3_FIELDS } from './providers/zhipu/v3-fields.js';
import type { ClientFormat } from './types.js';

/*
 * The field table of docs/field-mapping.md, printed from the rules the converters enforce: each client format's
 * request fields against each upstream wire. A test keeps the document equal to this output.
 */

interface Target {
  name: string;
  /** The client format this wire is (its calls pass through untouched), if any. */
  same: ClientFormat | null;
  /** null: OpenAI-compatible upstreams, which get the canonical request itself. */
  policy: WirePolicy | null;
}

const TARGETS: readonly Target[] = [
  { name: 'OpenAI-compatible (with Mistral, DeepSeek, VolcEngine, Qianfan v2, xAI, OpenRouter, Perplexity, Ollama chat)', same: 'openai', policy: null },
  { name: 'Claude (Anthropic, Bedrock, Vertex)', same: 'claude', policy: CLAUDE_FIELDS },
  { name: 'Gemini (Gemini, Vertex)', same: 'gemini', policy: GEMINI_FIELDS },
  { name: 'Cohere', same: null, policy: COHERE_FIELDS },
  { name: 'Tencent Hunyuan', same: null, policy: HUNYUAN_FIELDS },
  { name: 'Zhipu v3 (ChatGLM)', same: null, policy: ZHIPU_V3_FIELDS },
  { name: 'Baidu ERNIE (Qianfan v1)', same: null, policy: BAIDU_FIELDS },
  { name: 'iFlytek Spark', same: null, policy: SPARK_FIELDS },
  { name: 'PaLM 2', same: null, policy: PALM_FIELDS },
  { name: 'Dify', same: null, policy: DIFY_FIELDS },
  { name: 'AI Proxy knowledge base', same: null, policy: LIBRARY_FIELDS },
];

/** OpenAI chat clients send the canonical request itself: a row per field any wire has a rule for. */
function openAIClientFields(): ClientFields {
  const out: Record<string, ClientField> = {};
  for (const t of TARGETS) {
    if (!t.policy) continue;
    for (const field of Object.keys(t.policy.fields)) out[field] ??= { canonical: [field] };
    for (const part of Object.keys(t.policy.parts)) out[`messages[].content[].${part}`] ??= { canonical: [`part:${part}`] };
  }
  return out;
}

const CLIENTS: ReadonlyArray<{ name: string; format: ClientFormat; fields: () => ClientFields }> = [
  { name: 'OpenAI chat', format: 'openai', fields: openAIClientFields },
  { name: 'Claude Messages', format: 'claude', fields: () => CLAUDE_CLIENT_FIELDS },
  { name: 'Gemini generateContent', format: 'gemini', fields: () => GEMINI_CLIENT_FIELDS },
  { name: 'OpenAI Responses', format: 'responses', fields: () => RESPONSES_CLIENT_FIELDS },
];

function describe(rule: FieldRule): string {
  switch (rule.kind) {
    case 'mapped':
      return `mapped → ${rule.to}`;
    case 'ignored':
      return `ignored (${rule.why})`;
    case 'refused':
      return rule.allows ? `refused unless default (${rule.when})` : `refused (${rule.when})`;
  }
}

function wireRule(policy: WirePolicy, canonical: string): FieldRule | undefined {
  if (canonical.startsWith('part:')) return policy.parts[canonical.slice(5)];
  if (canonical.startsWith('msg:')) return policy.message[canonical.slice(4)];
  return policy.fields[canonical];
}

/** Canonical fields OpenAI's own API does not have: compatible servers may take them or refuse them. */
const NON_STANDARD = new Set(['top_k', 'msg:reasoning_content', 'msg:reasoning_signature']);

/** How an OpenAI-compatible upstream receives canonical fields. */
function forwarded(canonical: readonly string[]): string {
  const names = canonical.map((c) => c.replace(/^(part|msg):/, (_, k: string) => (k === 'part' ? 'content part ' : 'message.')));
  const loose = canonical.some((c) => NON_STANDARD.has(c));
  return `mapped → ${names.join(', ')}${loose ? ' (non-standard: the upstream decides)' : ''}`;
}

function cell(client: ClientFormat, field: ClientField, target: Target): string {
  if (target.same === client) return 'passthrough';
  if ('kind' in field) return describe(field);
  if (!target.policy) return forwarded(field.canonical);
  const rules = field.canonical.map((c) => wireRule(target.policy!, c) ?? refusedRule);
  return [...new Set(rules.map(describe))].join('; ');
}

const refusedRule: FieldRule = { kind: 'refused', when: 'no equivalent' };

const escape = (s: string) => s.replace(/\|/g, '\\|');

/** The tables, one per client format, as markdown. */
export function fieldAuditTable(): string {
  const out: string[] = [];
  for (const client of CLIENTS) {
    out.push(`### ${client.name} clients`, '', `| field | ${TARGETS.map((t) => t.name).join(' | ')} |`, `|---|${TARGETS.map(() => '---').join('|')}|`);
    for (const [name, field] of Object.entries(client.fields())) {
      if (name.endsWith('.*') || ('canonical' in field && field.canonical.length === 0)) continue;
      out.push(`| \`${escape(name)}\` | ${TARGETS.map((t) => escape(cell(client.format, field, t))).join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
