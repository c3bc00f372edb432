import { upstreamAuthFailed, upstreamError } from './errors.js';
/** The fallback type the wire codecs give an error body they could not read. */
const UNREAD = 'upstream_error';
/**
 * What the caller is told when an upstream answers with an error status. `status` is the upstream's status after
 * the channel's status_code_mapping. A refusal of the gateway's credentials (401/403, or a key the upstream calls
 * invalid) becomes the gateway's own 502; anything else keeps the upstream's status, message and code, and its
 * type only when the upstream speaks OpenAI's error shape (other formats' types are not OpenAI's: an OpenAI-format
 * caller then gets the documented type for the status).
 */
export function refusalFor(status, upstreamStatus, parsed, wire) {
    if (status === 401 || status === 403 || parsed.credentials)
        return upstreamAuthFailed(upstreamStatus);
    const openAIShaped = wire === 'openai' || wire === 'responses';
    const type = openAIShaped && parsed.type !== UNREAD ? parsed.type : undefined;
    return upstreamError(status, parsed.message, parsed.code || `upstream_${upstreamStatus}`, type);
}
//# sourceMappingURL=refusals.js.map