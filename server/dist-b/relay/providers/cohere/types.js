/*
 * Cohere's v2 Chat API (POST /v2/chat) as far as the converters use it. Unknown fields are tolerated on answers:
 * Cohere adds fields (citations, logprobs) that have no place in the canonical shape.
 */
export {};
//# sourceMappingURL=types.js.map