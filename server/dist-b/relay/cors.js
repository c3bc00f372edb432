/*
 * Relay calls may come from web pages on any origin (browser chat clients calling the API with their own key), as
 * the established gateway allows. A key travels in a header, never a cookie, so allowing every origin grants a page
 * nothing its key does not. Only calls that carry an Origin (browsers) get the header.
 */
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '86400';
export function allowBrowsers(res) {
    res.setHeader('access-control-allow-origin', '*');
}
/** Preflight answers for every relay path (the console's own API is same-origin and gets none). */
export function registerPreflight(app, paths) {
    for (const path of paths) {
        app.options(path, async (request, reply) => {
            const asked = request.headers['access-control-request-headers'];
            void reply
                .code(204)
                .header('access-control-allow-origin', '*')
                .header('access-control-allow-methods', ALLOWED_METHODS)
                .header('access-control-allow-headers', typeof asked === 'string' && asked ? asked : '*')
                .header('access-control-max-age', PREFLIGHT_MAX_AGE)
                .send();
        });
    }
}
//# sourceMappingURL=cors.js.map