import { MAX_ID } from './input.js';
/** No list pages past this many rows: a page beyond it is simply empty. */
export const MAX_OFFSET = 1_000_000_000;
export const MAX_PAGE_SIZE = 100;
/** The first of repeated parameters (`?p=1&p=2`). */
const first = (v) => (Array.isArray(v) ? v[0] : v);
/** A whole number typed in a query (`12`, `-3`, `1.5` -> 1), or undefined when it is not one. */
function whole(v) {
    const value = first(v);
    if (typeof value !== 'string' && typeof value !== 'number')
        return undefined;
    const n = Math.trunc(Number.parseFloat(String(value)));
    return Number.isFinite(n) ? n : undefined;
}
const clamp = (n, min, max) => Math.min(max, Math.max(min, n));
/** An integer filter compared with a 32-bit column (ids, types); 0 (no filter) when absent or not a number. */
export function queryInt(query, name) {
    return clamp(whole(query[name]) ?? 0, -MAX_ID, MAX_ID);
}
/** Unix seconds compared with a 64-bit column; 0 (open) when absent or not a number. */
export function queryTime(query, name) {
    return clamp(whole(query[name]) ?? 0, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}
/** A text filter, trimmed; '' when absent. */
export function queryText(query, name) {
    const value = first(query[name]);
    return typeof value === 'string' ? value.trim() : '';
}
/** True for a flag sent as anything but '', 'false' or '0'. */
export function queryFlag(query, name) {
    const value = first(query[name]);
    return typeof value === 'string' && !['', 'false', '0'].includes(value);
}
/**
 * `p` and `page_size` (or `size`) of a list. A missing, negative or unreadable page is the first; a fractional one
 * is cut to a whole page; one past MAX_OFFSET rows is empty. A size of 0 or none is the list's default; one outside
 * 1..100 is brought to the nearer bound.
 */
export function paging(query, { firstPage = 0, defaultSize = 10 } = {}) {
    const asked = whole(query.page_size) ?? whole(query.size);
    const size = asked ? clamp(asked, 1, MAX_PAGE_SIZE) : defaultSize;
    const lastPage = firstPage + Math.floor(MAX_OFFSET / size);
    const page = clamp(whole(query.p) ?? firstPage, firstPage, lastPage);
    return { page, size, offset: (page - firstPage) * size };
}
//# sourceMappingURL=query.js.map