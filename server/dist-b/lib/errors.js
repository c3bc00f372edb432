/**
 * The one error type of the server. Routes throw it; each surface (console envelope, OpenAI, Claude, Gemini)
 * renders it in its own shape. `status` is the HTTP status; console business errors use 200.
 */
export class AppError extends Error {
    status;
    code;
    constructor(status, message, 
    /** Machine-readable code for relay error bodies. */
    code) {
        super(message);
        this.status = status;
        this.code = code;
    }
}
/** A console business failure: HTTP 200 with success:false and this message. */
export const fail = (message) => new AppError(200, message);
//# sourceMappingURL=errors.js.map