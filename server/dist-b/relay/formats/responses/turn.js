import { RelayError } from '../../errors.js';
import { mintedResponseBase, newIdBase, responseOfItem } from './ids.js';
import { forwardedInput } from './input-items.js';
import { keeperLimitsMB, STATE } from './store.js';
const isObj = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
export class ResponsesTurn {
    keeper;
    userId;
    store;
    base;
    previousResponseId;
    input;
    /** The Response given to the client, set by the format's encoder when the gateway converted the answer. */
    produced = null;
    constructor(keeper, userId, 
    /** store !== false: the produced response is kept. */
    store, 
    /** Names the response and its items (ids.ts). */
    base, 
    /** The previous response resolved here (echoed in the response), or null. */
    previousResponseId, 
    /** The complete input the upstream is given: the resolved item list, or the client's own input. */
    input) {
        this.keeper = keeper;
        this.userId = userId;
        this.store = store;
        this.base = base;
        this.previousResponseId = previousResponseId;
        this.input = input;
    }
    /** After the answer reached the client: hand what the gateway produced to the keeper (written later, in a batch). */
    delivered() {
        const response = this.produced;
        if (!this.store || !response)
            return;
        this.keeper.keep({ id: response.id, base: this.base, userId: this.userId, createdAt: response.created_at, response, input: this.input });
    }
}
/** The ids minted here among the request's item references. */
function referencedItems(input) {
    const ids = [];
    if (!Array.isArray(input))
        return ids;
    for (const item of input) {
        if (isObj(item) && item.type === 'item_reference' && responseOfItem(item.id))
            ids.push(item.id);
    }
    return ids;
}
/**
 * Gives a Responses call its turn: resolves the references it makes to responses kept here (changing the body the
 * upstream gets) and decides whether its answer is kept. A call that neither stores nor refers to anything kept
 * here costs nothing more.
 */
export async function beginTurn(keeper, userId, call) {
    const json = call.json;
    if (!json)
        return;
    const store = json.store !== false;
    const previous = mintedResponseBase(json.previous_response_id) ? json.previous_response_id : null;
    const items = referencedItems(json.input);
    if (!store && !previous && items.length === 0)
        return;
    let input = json.input;
    let resolvedPrevious = null;
    if (previous || items.length > 0) {
        const resolved = await resolve(keeper, userId, json, previous, items);
        if (resolved) {
            input = resolved.input;
            resolvedPrevious = resolved.previous;
            json.input = forwardedInput(resolved.input);
            if (resolved.previous)
                delete json.previous_response_id;
            call.raw = Buffer.from(JSON.stringify(json));
        }
    }
    call.turn = new ResponsesTurn(keeper, userId, store, newIdBase(), resolvedPrevious, input);
}
/** A kept response that cannot be used, and why. */
function unavailable(keeper, what, found) {
    const { maxResponseMB, maxUserMB } = keeperLimitsMB(keeper.limitsNow());
    return found.state === STATE.tooLarge
        ? new RelayError(400, `${what}所属的响应超过单个响应 ${maxResponseMB} MB 的保存上限，未被保存，无法引用；请在 input 中携带完整对话`, 'response_too_large', 'invalid_request_error')
        : new RelayError(400, `${what}所属的响应已在该用户保存的响应超过 ${maxUserMB} MB 时被清理，无法引用；请在 input 中携带完整对话`, 'response_evicted', 'invalid_request_error');
}
/**
 * The complete input with the references to responses kept here replaced by their items: the previous response's
 * input and output first, then the request's input. Null when nothing could be resolved (all left as they came).
 */
async function resolve(keeper, userId, json, previous, items) {
    const responses = new Set(items.map((id) => responseOfItem(id)));
    if (previous)
        responses.add(previous);
    // Output items are in the response; input items (`_i<n>` ids) only in its input, which can be large.
    const withInput = previous !== null || items.some((id) => /_i\d+$/.test(id));
    const found = await keeper.find(userId, [...responses], withInput);
    const out = [];
    let changed = false;
    let resolvedPrevious = null;
    if (previous) {
        const prev = found.get(previous);
        if (prev && prev.state !== STATE.stored)
            throw unavailable(keeper, `previous_response_id '${previous}' `, prev);
        if (prev?.state === STATE.stored) {
            out.push(...(prev.input ?? []), ...prev.response.output);
            resolvedPrevious = previous;
            changed = true;
        }
    }
    const input = typeof json.input === 'string' ? [{ role: 'user', content: json.input }] : json.input;
    for (const item of input) {
        const id = isObj(item) && item.type === 'item_reference' ? responseOfItem(item.id) : null;
        const kept = id ? found.get(id) : undefined;
        if (!kept) {
            out.push(item);
            continue;
        }
        if (kept.state !== STATE.stored)
            throw unavailable(keeper, `item_reference '${String(item.id)}' `, kept);
        const target = item.id;
        const match = kept.response.output.find((o) => isObj(o) && o.id === target) ?? kept.input?.find((o) => o.id === target);
        if (match)
            changed = true;
        out.push(match ?? item);
    }
    return changed ? { input: out, previous: resolvedPrevious } : null;
}
//# sourceMappingURL=turn.js.map