const textOf = (content) => (content?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
/**
 * A Gemini client's embedContent or batchEmbedContents body as an OpenAI embeddings request. OpenAI takes one
 * dimensions value per call: the first request's outputDimensionality stands for all.
 */
export function geminiEmbedToOpenAI(req, model) {
    const requests = 'requests' in req ? req.requests : [req];
    const out = { model, input: requests.map((r) => textOf(r.content)) };
    const dims = requests[0]?.outputDimensionality;
    if (typeof dims === 'number')
        out.dimensions = dims;
    return out;
}
/** An OpenAI embeddings answer in the shape of the Gemini call the client made. */
export function openAIToGeminiEmbed(resp, batch) {
    const ordered = [...(resp.data ?? [])].sort((a, b) => a.index - b.index);
    if (!batch)
        return { embedding: { values: ordered[0]?.embedding ?? [] } };
    return { embeddings: ordered.map((d) => ({ values: d.embedding })) };
}
//# sourceMappingURL=embeddings.js.map