/*
 * The canonical shape every conversion goes through: OpenAI Chat Completions. A client format converts its request
 * to a ChatRequest and a ChatCompletion/ChatChunk stream back to its own shape; a provider converts a ChatRequest to
 * its wire request and its answers to ChatCompletion/ChatChunk. Only the fields the converters use are typed;
 * unknown fields pass through as `[key: string]: unknown`.
 */
export {};
//# sourceMappingURL=chat.js.map