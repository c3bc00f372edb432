import { claudeClient } from './claude/client.js';
import { geminiClient } from './gemini/client.js';
import { openAIClient } from './openai/client.js';
import { responsesClient } from './responses/client.js';
const FORMATS = {
    openai: openAIClient,
    claude: claudeClient,
    gemini: geminiClient,
    responses: responsesClient,
};
export function clientFormat(format) {
    return FORMATS[format];
}
/** The call in the canonical shape, converted once. */
export function canonicalOf(call) {
    if (call.format === 'openai')
        return call.json ?? {};
    call.canonical ??= clientFormat(call.format).toCanonical(call);
    return call.canonical;
}
/**
 * The canonical request for estimates and counts, or null when the call cannot be expressed canonically (a Responses
 * call with hosted tools or stored state, which only a same-format upstream can serve).
 */
export function canonicalForCounting(call) {
    try {
        return canonicalOf(call);
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=index.js.map