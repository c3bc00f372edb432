import { parseClaudeError } from '../claude/errors.js';
import { parseGeminiError } from '../gemini/errors.js';
/**
 * Vertex answers errors of its own (auth, quota, unknown model) in Google's shape {error:{code,message,status}},
 * also on Claude calls, where the model's own errors keep Anthropic's shape {type:"error",error:{type,message}}.
 */
export function parseVertexError(status, body) {
    return isGoogleError(body) ? parseGeminiError(status, body) : parseClaudeError(status, body);
}
function isGoogleError(body) {
    try {
        let parsed = JSON.parse(body);
        // Streaming endpoints wrap the error in a one-element array.
        if (Array.isArray(parsed))
            parsed = parsed[0];
        const e = parsed?.error;
        return !!e && typeof e === 'object' && (typeof e.status === 'string' || typeof e.code === 'number');
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=errors.js.map