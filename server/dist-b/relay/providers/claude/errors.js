/**
 * A Claude error body ({type:"error", error:{type, message}}) as the relay's error fields; the Claude error type
 * doubles as the code. Anything else (HTML from a proxy, empty bodies) reports the status only, never the body.
 */
export function parseClaudeError(status, body) {
    const fallback = { message: `bad response status code ${status}`, type: 'upstream_error', code: '' };
    let parsed;
    try {
        parsed = JSON.parse(body);
    }
    catch {
        return fallback;
    }
    const e = parsed?.error;
    if (e && typeof e === 'object') {
        const { type, message } = e;
        const t = typeof type === 'string' && type ? type : 'upstream_error';
        return { message: typeof message === 'string' && message ? message : fallback.message, type: t, code: typeof type === 'string' ? type : '' };
    }
    if (typeof e === 'string' && e)
        return { ...fallback, message: e };
    return fallback;
}
//# sourceMappingURL=errors.js.map