/*
 * Anthropic Messages API wire types (POST /v1/messages), as far as the converters use them. Unknown fields on the
 * request pass through as `[key: string]: unknown`; blocks and events are closed unions so switches stay exhaustive.
 */
export {};
//# sourceMappingURL=types.js.map