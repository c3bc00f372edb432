/*
 * xAI's reasoning models (grok-3-mini*) take the answer's cap as max_completion_tokens, and their effort as
 * reasoning_effort; a model asked for as grok-3-mini-high (or -low) names the effort the way gateways spell it.
 */

const EFFORT_SUFFIX = /-(low|medium|high)$/;

export function xaiRequest(body: Record<string, unknown>): void {
  const model = String(body.model ?? '');
  if (!model.startsWith('grok-3-mini')) return;
  const effort = EFFORT_SUFFIX.exec(model);
  if (effort) {
    body.model = model.slice(0, -effort[0].length);
    body.reasoning_effort ??= effort[1];
  }
  if (body.max_tokens !== undefined && body.max_completion_tokens === undefined) {
    body.max_completion_tokens = body.max_tokens;
    delete body.max_tokens;
  }
}
