/**
 * The one error type of the server. Routes throw it; each surface (console envelope, OpenAI, Claude, Gemini)
 * renders it in its own shape. `status` is the HTTP status; console business errors use 200.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Machine-readable code for relay error bodies. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A console business failure: HTTP 200 with success:false and this message. */
export const fail = (message: string): AppError => new AppError(200, message);
