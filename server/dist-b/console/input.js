import { z } from 'zod';
import { fail } from '../lib/errors.js';
/*
 * Request bodies and path ids at the console's edge. Each route declares one zod schema for its body; `parse`
 * checks it and turns the first problem into the console's business error.
 */
/** Ids are 32-bit integer columns on every database (PostgreSQL refuses a larger value outright). */
export const MAX_ID = 2_147_483_647;
/** A row id in a JSON body. */
export const rowId = z.number().int().min(1).max(MAX_ID);
/** A row id sent as a number or as its digits (path parameters always arrive as text). */
export const entityId = z.union([
    rowId,
    z
        .string()
        .regex(/^\d{1,10}$/)
        .transform(Number)
        .pipe(z.number().min(1).max(MAX_ID)),
]);
/** The id in a path parameter, or undefined when it cannot name a row. */
export function idParam(params, name = 'id') {
    const raw = params?.[name];
    const parsed = entityId.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
}
/** Marks the issues a schema gave no message of its own. */
const UNWORDED = '\u0000unworded';
/**
 * Validates a payload against a schema. A check that carries its own Chinese message (a name too long, a bad
 * quota...) is shown as it is; anything else names the first bad field. A missing body is checked as `{}`, so a
 * route that needs fields answers with its own message, never with a framework error.
 */
export function parse(schema, input) {
    const result = schema.safeParse(input ?? {}, { error: () => UNWORDED });
    if (result.success)
        return result.data;
    const issue = result.error.issues[0];
    if (issue && issue.message !== UNWORDED)
        throw fail(issue.message);
    const field = issue?.path.join('.') || '请求';
    throw fail(`无效的参数：${field}`);
}
//# sourceMappingURL=input.js.map