import { RelayError } from './errors.js';
/*
 * A call whose model has no enabled channel in the caller's group. Whether retrying can help decides the status:
 * a model no channel lists for the group — enabled or not, in any priority — is unknown to this caller, a 404
 * (OpenAI `model_not_found`, Claude `not_found_error`, Gemini `NOT_FOUND`), so SDKs do not retry it; a model some
 * channel lists but none can serve now (every one disabled by hand or by auto-disable) is a 503. A model served only
 * in other groups is unknown to this caller. Channels resting after failures still serve (docs/relay-errors.md).
 */
const message = (group, model) => `当前分组 ${group} 下对于模型 ${model} 无可用渠道`;
/** 404: no channel of the group lists the model. */
export function modelNotFound(group, model) {
    return new RelayError(404, message(group, model), 'model_not_found');
}
/** 503: channels of the group list the model, but none is enabled. */
export function noAvailableChannel(group, model) {
    return new RelayError(503, message(group, model), 'no_available_channel');
}
/** The refusal for a (group, model) without an enabled channel: 404 or 503 as above. */
export function unroutable(ctx, group, model) {
    return ctx.routing.lists(group, model) ? noAvailableChannel(group, model) : modelNotFound(group, model);
}
/**
 * Throws the refusal when no enabled channel of the group serves the model; for calls answered without the
 * pipeline (count_tokens forwarded to an upstream) that must refuse what a relayed call would.
 */
export function requireRoutable(ctx, group, model) {
    if (ctx.routing.tiers(group, model).length === 0)
        throw unroutable(ctx, group, model);
}
//# sourceMappingURL=availability.js.map