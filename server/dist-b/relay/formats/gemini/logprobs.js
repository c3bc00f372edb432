const bytesOf = (token) => [...Buffer.from(token, 'utf8')];
const entry = (c) => ({ token: c.token ?? '', logprob: c.logProbability ?? 0, bytes: bytesOf(c.token ?? '') });
export function chatLogprobsOf(result) {
    const top = result.topCandidates ?? [];
    return {
        content: (result.chosenCandidates ?? []).map((c, i) => ({ ...entry(c), top_logprobs: (top[i]?.candidates ?? []).map(entry) })),
        refusal: null,
    };
}
export function geminiLogprobsOf(logprobs) {
    const content = logprobs.content ?? [];
    return {
        topCandidates: content.map((t) => ({ candidates: (t.top_logprobs ?? []).map((c) => ({ token: c.token, logProbability: c.logprob })) })),
        chosenCandidates: content.map((t) => ({ token: t.token, logProbability: t.logprob })),
    };
}
/** Gemini's avgLogprobs of a candidate: the mean over its chosen tokens. */
export function averageLogprob(logprobs) {
    const content = logprobs.content ?? [];
    if (content.length === 0)
        return undefined;
    return content.reduce((sum, t) => sum + t.logprob, 0) / content.length;
}
//# sourceMappingURL=logprobs.js.map