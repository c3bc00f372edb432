import { RelayError } from '../../errors.js';
import type { ClientCall } from '../../types.js';
import { mintedResponseBase, newIdBase, responseOfItem } from './ids.js';
import { forwardedInput } from './input-items.js';
import { keeperLimitsMB, STATE, type Found, type ResponsesKeeper } from './store.js';
import type { ResponseObject } from './types.js';

/*
 * One Responses call's state: before the upstream call, references to responses the gateway keeps are resolved into
 * the items they name; before the answer ends, the response the gateway produced is written by the keeper.
 *
 * The rule: ids minted here (ids.ts) are resolved here, whatever channel serves the call, because a conversation may
 * move between channels; an id minted elsewhere (by OpenAI) is left as it came, for the OpenAI channel that knows it.
 * A reference the keeper does not find (deleted, expired, another user's, or made with store: false) is left as it
 * came too: an OpenAI channel answers it as OpenAI does, a converting channel refuses it as not found (to-chat.ts).
 * A reference to a response that was evicted or too large to keep is refused here, with the reason.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export class ResponsesTurn {
  /** The Response given to the client, set by the format's encoder when the gateway converted the answer. */
  produced: ResponseObject | null = null;

  constructor(
    private readonly keeper: ResponsesKeeper,
    readonly userId: number,
    /** store !== false: the produced response is kept. */
    readonly store: boolean,
    /** Names the response and its items (ids.ts). */
    readonly base: string,
    /** The previous response resolved here (echoed in the response), or null. */
    readonly previousResponseId: string | null,
    /** The complete input the upstream is given: the resolved item list, or the client's own input. */
    readonly input: unknown,
  ) {}

  /**
   * Before the last bytes of the answer go out: writes what the gateway produced where every worker and node reads
   * it, so a next turn sent the moment the answer ends finds it wherever it lands.
   */
  async keep(): Promise<void> {
    const response = this.produced;
    if (!this.store || !response) return;
    await this.keeper.keepNow({ id: response.id, base: this.base, userId: this.userId, createdAt: response.created_at, response, input: this.input });
  }
}

/** The ids minted here among the request's item references. */
function referencedItems(input: unknown): string[] {
  const ids: string[] = [];
  if (!Array.isArray(input)) return ids;
  for (const item of input) {
    if (isObj(item) && item.type === 'item_reference' && responseOfItem(item.id)) ids.push(item.id as string);
  }
  return ids;
}

/**
 * Gives a Responses call its turn: resolves the references it makes to responses kept here (changing the body the
 * upstream gets) and decides whether its answer is kept. A call that neither stores nor refers to anything kept
 * here costs nothing more.
 */
export async function beginTurn(keeper: ResponsesKeeper, userId: number, call: ClientCall): Promise<void> {
  const json = call.json;
  if (!json) return;
  const store = json.store !== false;
  const previous = mintedResponseBase(json.previous_response_id) ? (json.previous_response_id as string) : null;
  const items = referencedItems(json.input);
  if (!store && !previous && items.length === 0) return;
  let input: unknown = json.input;
  let resolvedPrevious: string | null = null;
  if (previous || items.length > 0) {
    const resolved = await resolve(keeper, userId, json, previous, items);
    if (resolved) {
      input = resolved.input;
      resolvedPrevious = resolved.previous;
      json.input = forwardedInput(resolved.input);
      if (resolved.previous) delete json.previous_response_id;
      call.raw = Buffer.from(JSON.stringify(json));
    }
  }
  call.turn = new ResponsesTurn(keeper, userId, store, newIdBase(), resolvedPrevious, input);
}

/** A kept response that cannot be used, and why. */
function unavailable(keeper: ResponsesKeeper, what: string, found: Found): RelayError {
  const { maxResponseMB, maxUserMB } = keeperLimitsMB(keeper.limitsNow());
  return found.state === STATE.tooLarge
    ? new RelayError(400, `${what}所属的响应超过单个响应 ${maxResponseMB} MB 的保存上限，未被保存，无法引用；请在 input 中携带完整对话`, 'response_too_large', 'invalid_request_error')
    : new RelayError(400, `${what}所属的响应已在该用户保存的响应超过 ${maxUserMB} MB 时被清理，无法引用；请在 input 中携带完整对话`, 'response_evicted', 'invalid_request_error');
}

/**
 * The complete input with the references to responses kept here replaced by their items: the previous response's
 * input and output first, then the request's input. Null when nothing could be resolved (all left as they came).
 */
async function resolve(
  keeper: ResponsesKeeper,
  userId: number,
  json: Obj,
  previous: string | null,
  items: string[],
): Promise<{ input: unknown[]; previous: string | null } | null> {
  const responses = new Set(items.map((id) => responseOfItem(id) as string));
  if (previous) responses.add(previous);
  // Output items are in the response; input items (`_i<n>` ids) only in its input, which can be large.
  const withInput = previous !== null || items.some((id) => /_i\d+$/.test(id));
  const found = await keeper.find(userId, [...responses], withInput);

  const out: unknown[] = [];
  let changed = false;
  let resolvedPrevious: string | null = null;
  if (previous) {
    const prev = found.get(previous);
    if (prev && prev.state !== STATE.stored) throw unavailable(keeper, `previous_response_id '${previous}' `, prev);
    if (prev?.state === STATE.stored) {
      out.push(...(prev.input ?? []), ...prev.response.output);
      resolvedPrevious = previous;
      changed = true;
    }
  }
  const input: unknown[] = typeof json.input === 'string' ? [{ role: 'user', content: json.input }] : (json.input as unknown[]);
  for (const item of input) {
    const id = isObj(item) && item.type === 'item_reference' ? responseOfItem(item.id) : null;
    const kept = id ? found.get(id) : undefined;
    if (!kept) {
      out.push(item);
      continue;
    }
    if (kept.state !== STATE.stored) throw unavailable(keeper, `item_reference '${String((item as Obj).id)}' `, kept);
    const target = (item as Obj).id;
    const match = (kept.response.output as unknown[]).find((o) => isObj(o) && o.id === target) ?? kept.input?.find((o) => o.id === target);
    if (match) changed = true;
    out.push(match ?? item);
  }
  return changed ? { input: out, previous: resolvedPrevious } : null;
}
