const EMBED_METHODS = ['embedContent', 'batchEmbedContents', 'countTokens'];
const GENERATE_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];
/** The models a token may use, as Gemini's GET /v1beta/models answer. */
export function geminiModelList(ids) {
    return {
        models: ids.map((id) => ({
            name: `models/${id}`,
            baseModelId: id,
            version: '001',
            displayName: id,
            supportedGenerationMethods: /embed/i.test(id) ? EMBED_METHODS : GENERATE_METHODS,
        })),
    };
}
//# sourceMappingURL=models.js.map