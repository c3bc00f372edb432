/** OpenAI's embeddings request as batchEmbedContents: one request per input, each naming the model again. */
export function embeddingsToGemini(req, model) {
    const inputs = Array.isArray(req.input) ? req.input : [req.input];
    return {
        requests: inputs.map((text) => {
            const r = { model: `models/${model}`, content: { parts: [{ text: String(text) }] } };
            if (typeof req.dimensions === 'number')
                r.outputDimensionality = req.dimensions;
            return r;
        }),
    };
}
/** batchEmbedContents reports no usage: the prompt tokens counted here are passed in. */
export function geminiToEmbeddings(resp, model, promptTokens) {
    return {
        object: 'list',
        data: (resp.embeddings ?? []).map((e, index) => ({ object: 'embedding', index, embedding: e.values ?? [] })),
        model,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    };
}
//# sourceMappingURL=embeddings.js.map