/*
 * The OpenAI Responses API shapes the converters use (POST /v1/responses, openai SDK v6 `responses.create` /
 * `responses.stream`). Only the fields read or written here are typed; requests are read defensively as
 * Record<string, unknown> because the fields arrive from clients unchecked.
 */
export {};
//# sourceMappingURL=types.js.map