import { randomFillSync } from 'node:crypto';
/*
 * Ids of the Responses the gateway makes itself, in OpenAI's style: `resp_<base>` for the response and
 * `<msg|fc|rs>_<base>_<n>` for its output items (`_i<n>` for the input items it keeps). The base is 192 random
 * bits after the mark "sy": OpenAI's own ids are hex after the prefix, and "y" is not a hex digit, so an id minted
 * here is told from one OpenAI minted without looking anything up — and every item id names its response.
 */
const MARK = 'sy';
const BASE_BYTES = 24;
// Random bytes are drawn 256 ids at a time: one randomBytes call per id cost more (2.7 µs) than the rest of the turn.
const pool = Buffer.alloc(BASE_BYTES * 256);
let used = pool.length;
/** A new random id base (unique and unguessable). */
export function newIdBase() {
    if (used === pool.length) {
        randomFillSync(pool);
        used = 0;
    }
    const hex = pool.toString('hex', used, used + BASE_BYTES);
    used += BASE_BYTES;
    return MARK + hex;
}
export const responseId = (base) => `resp_${base}`;
export const itemId = (prefix, base, index) => `${prefix}_${base}_${index}`;
const RESPONSE_ID = /^resp_(sy[0-9a-f]{48})$/;
const ITEM_ID = /^[a-z]+_(sy[0-9a-f]{48})_i?\d+$/;
/** The id base of a response id minted here, or null (an id OpenAI or anyone else minted). */
export function mintedResponseBase(id) {
    return typeof id === 'string' ? (RESPONSE_ID.exec(id)?.[1] ?? null) : null;
}
/** The response a gateway-minted item id belongs to, or null for an item id minted elsewhere. */
export function responseOfItem(id) {
    const base = typeof id === 'string' ? ITEM_ID.exec(id)?.[1] : undefined;
    return base ? responseId(base) : null;
}
export const isMintedId = (id) => mintedResponseBase(id) !== null || responseOfItem(id) !== null;
//# sourceMappingURL=ids.js.map