import { CLAUDE_CLIENT_FIELDS } from './formats/claude/fields.js';
import { GEMINI_CLIENT_FIELDS } from './formats/gemini/fields.js';
import { RESPONSES_CLIENT_FIELDS } from './formats/responses/fields.js';
import { CLAUDE_FIELDS } from './providers/claude/fields.js';
import { COHERE_FIELDS } from './providers/cohere/fields.js';
import { GEMINI_FIELDS } from './providers/gemini/fields.js';
const TARGETS = [
    { name: 'OpenAI-compatible', same: 'openai', policy: null },
    { name: 'Claude (Anthropic, Bedrock, Vertex)', same: 'claude', policy: CLAUDE_FIELDS },
    { name: 'Gemini (Gemini, Vertex)', same: 'gemini', policy: GEMINI_FIELDS },
    { name: 'Cohere', same: null, policy: COHERE_FIELDS },
];
/** OpenAI chat clients send the canonical request itself: a row per field any wire has a rule for. */
function openAIClientFields() {
    const out = {};
    for (const t of TARGETS) {
        if (!t.policy)
            continue;
        for (const field of Object.keys(t.policy.fields))
            out[field] ??= { canonical: [field] };
        for (const part of Object.keys(t.policy.parts))
            out[`messages[].content[].${part}`] ??= { canonical: [`part:${part}`] };
    }
    return out;
}
const CLIENTS = [
    { name: 'OpenAI chat', format: 'openai', fields: openAIClientFields },
    { name: 'Claude Messages', format: 'claude', fields: () => CLAUDE_CLIENT_FIELDS },
    { name: 'Gemini generateContent', format: 'gemini', fields: () => GEMINI_CLIENT_FIELDS },
    { name: 'OpenAI Responses', format: 'responses', fields: () => RESPONSES_CLIENT_FIELDS },
];
function describe(rule) {
    switch (rule.kind) {
        case 'mapped':
            return `mapped → ${rule.to}`;
        case 'ignored':
            return `ignored (${rule.why})`;
        case 'refused':
            return rule.allows ? `refused unless default (${rule.when})` : `refused (${rule.when})`;
    }
}
function wireRule(policy, canonical) {
    if (canonical.startsWith('part:'))
        return policy.parts[canonical.slice(5)];
    if (canonical.startsWith('msg:'))
        return policy.message[canonical.slice(4)];
    return policy.fields[canonical];
}
/** Canonical fields OpenAI's own API does not have: compatible servers may take them or refuse them. */
const NON_STANDARD = new Set(['top_k', 'msg:reasoning_content', 'msg:reasoning_signature']);
/** How an OpenAI-compatible upstream receives canonical fields. */
function forwarded(canonical) {
    const names = canonical.map((c) => c.replace(/^(part|msg):/, (_, k) => (k === 'part' ? 'content part ' : 'message.')));
    const loose = canonical.some((c) => NON_STANDARD.has(c));
    return `mapped → ${names.join(', ')}${loose ? ' (non-standard: the upstream decides)' : ''}`;
}
function cell(client, field, target) {
    if (target.same === client)
        return 'passthrough';
    if ('kind' in field)
        return describe(field);
    if (!target.policy)
        return forwarded(field.canonical);
    const rules = field.canonical.map((c) => wireRule(target.policy, c) ?? refusedRule);
    return [...new Set(rules.map(describe))].join('; ');
}
const refusedRule = { kind: 'refused', when: 'no equivalent' };
const escape = (s) => s.replace(/\|/g, '\\|');
/** The tables, one per client format, as markdown. */
export function fieldAuditTable() {
    const out = [];
    for (const client of CLIENTS) {
        out.push(`### ${client.name} clients`, '', `| field | ${TARGETS.map((t) => t.name).join(' | ')} |`, `|---|${TARGETS.map(() => '---').join('|')}|`);
        for (const [name, field] of Object.entries(client.fields())) {
            if (name.endsWith('.*') || ('canonical' in field && field.canonical.length === 0))
                continue;
            out.push(`| \`${escape(name)}\` | ${TARGETS.map((t) => escape(cell(client.format, field, t))).join(' | ')} |`);
        }
        out.push('');
    }
    return out.join('\n');
}
//# sourceMappingURL=field-audit.js.map