import { RelayError } from '../../errors.js';
/** The region used when the channel names none. */
export const DEFAULT_REGION = 'global';
/**
 * The channel's region for a model. `other` is a region ("us-east5") or a JSON map of model → region with a
 * "default" entry ({"default":"us-east5","gemini-2.5-pro":"global"}); the first name found in the map wins.
 */
export function regionFor(other, models) {
    const text = other.trim();
    if (!text)
        return DEFAULT_REGION;
    if (!text.startsWith('{'))
        return text;
    let map;
    try {
        const parsed = JSON.parse(text);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
            return DEFAULT_REGION;
        map = parsed;
    }
    catch {
        return DEFAULT_REGION;
    }
    for (const name of [...models, 'default']) {
        const region = map[name];
        if (typeof region === 'string' && region.trim())
            return region.trim();
    }
    return DEFAULT_REGION;
}
const REGION_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Vertex's endpoint for a region: the global endpoint has no region prefix. */
export function regionHost(region) {
    // The region becomes part of a host name: anything but a plain name could point the call elsewhere.
    if (!REGION_NAME.test(region)) {
        throw new RelayError(500, 'Vertex AI 渠道区域设置无效', 'invalid_channel_region', undefined, false);
    }
    return region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`;
}
//# sourceMappingURL=region.js.map