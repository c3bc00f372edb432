import type { ClientCall, ClientFormat } from '../types.js';
import { CLAUDE_CLIENT_FIELDS } from './claude/fields.js';
import { clientFieldOf, type ClientFields } from './client-fields.js';
import { GEMINI_CLIENT_FIELDS } from './gemini/fields.js';
import { RESPONSES_CLIENT_FIELDS } from './responses/fields.js';
import type { ClientFormatModule } from './client.js';
import { claudeClient } from './claude/client.js';
import { geminiClient } from './gemini/client.js';
import { openAIClient } from './openai/client.js';
import { responsesClient } from './responses/client.js';

const FORMATS: Record<ClientFormat, ClientFormatModule> = {
  openai: openAIClient,
  claude: claudeClient,
  gemini: geminiClient,
  responses: responsesClient,
};

export function clientFormat(format: ClientFormat): ClientFormatModule {
  return FORMATS[format];
}

/** The call in the canonical shape, converted once. */
export function canonicalOf(call: ClientCall): Record<string, unknown> {
  if (call.format === 'openai') return call.json ?? {};
  call.canonical ??= clientFormat(call.format).toCanonical(call);
  return call.canonical;
}

/**
 * The canonical request for estimates and counts, or null when the call cannot be expressed canonically (a Responses
 * call with hosted tools or stored state, which only a same-format upstream can serve).
 */
export function canonicalForCounting(call: ClientCall): Record<string, unknown> | null {
  try {
    return canonicalOf(call);
  } catch {
    return null;
  }
}

const FIELD_TABLES: Partial<Record<ClientFormat, ClientFields>> = {
  claude: CLAUDE_CLIENT_FIELDS,
  gemini: GEMINI_CLIENT_FIELDS,
  responses: RESPONSES_CLIENT_FIELDS,
};

/** A canonical field's name as the client of `format` sent it. */
export function clientFieldName(format: ClientFormat, canonical: string): string {
  const table = FIELD_TABLES[format];
  return table ? clientFieldOf(table, canonical) : canonical;
}
