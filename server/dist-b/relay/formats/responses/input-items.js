import { isMintedId, itemId } from './ids.js';
const isObj = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
const PREFIX = { message: 'msg', function_call: 'fc', function_call_output: 'fco', reasoning: 'rs' };
/** A message's text content as parts: input_text for what the caller wrote, output_text for the assistant's. */
function contentParts(role, content) {
    if (typeof content !== 'string')
        return content;
    return [{ type: role === 'assistant' ? 'output_text' : 'input_text', text: content }];
}
/**
 * The input as kept with the response `base` names: a string becomes a user message; messages get their type and
 * their content as parts; items without an id get `<prefix>_<base>_i<n>`. The client's objects are not changed.
 */
export function keptInput(input, base) {
    const items = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
    return items.map((raw, n) => {
        if (!isObj(raw))
            return { type: 'unknown', id: itemId('item', base, `i${n}`) };
        const type = typeof raw.type === 'string' ? raw.type : 'message';
        const item = { ...raw, type };
        if (typeof item.id !== 'string' || !item.id)
            item.id = itemId(PREFIX[type] ?? 'item', base, `i${n}`);
        if (type === 'message')
            item.content = contentParts(item.role, item.content);
        return item;
    });
}
/** Output items given back as input, in the fields an upstream's input accepts. */
function asInput(item) {
    switch (item.type) {
        case 'message': {
            const content = Array.isArray(item.content)
                ? item.content.map((p) => {
                    if (!isObj(p))
                        return p;
                    if (p.type === 'output_text')
                        return { type: 'output_text', text: p.text };
                    if (p.type === 'refusal')
                        return { type: 'refusal', refusal: p.refusal };
                    return p;
                })
                : item.content;
            return { type: 'message', role: item.role, content };
        }
        case 'function_call':
            return { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments };
        // Thoughts a model wrote through this gateway cannot go back to an upstream: Claude and Gemini want their own
        // signatures, OpenAI its encrypted content. They stay in the kept input (and in /input_items).
        case 'reasoning':
            return null;
        default: {
            const { id: _id, status: _status, ...rest } = item;
            return rest;
        }
    }
}
/**
 * The resolved input as it goes upstream: items minted here lose their ids (and our reasoning items are left out);
 * everything else — the client's own items, items OpenAI minted — goes as it came.
 */
export function forwardedInput(items) {
    const out = [];
    for (const item of items) {
        if (!isObj(item) || !isMintedId(item.id)) {
            out.push(item);
            continue;
        }
        const forwarded = asInput(item);
        if (forwarded)
            out.push(forwarded);
    }
    return out;
}
//# sourceMappingURL=input-items.js.map