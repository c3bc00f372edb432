import { itemId } from './ids.js';
import type { ResponsesCompactionItem } from './types.js';

/*
 * Responses compaction on channels that have none (everything but OpenAI's own). Codex, when its history nears the
 * model's window, sends the history with a last input item `{type: "compaction_trigger"}` and takes the answer's one
 * `compaction` output item as the start of its new history; later turns send that item back. OpenAI's item holds
 * an encrypted summary only OpenAI can read. Here the upstream model is asked for the summary (the trigger becomes
 * a request for a handoff summary, no tools offered), and the item carries that summary in a form only this gateway
 * reads back, as a user message, when a later turn sends the item. The summary is the client's own conversation
 * in brief, so it is encoded, not encrypted: a client could send the same text as a message anyway.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** What the trigger becomes: the model is asked for a summary that lets another turn carry the work on. */
export const COMPACTION_REQUEST = [
  'The conversation so far is about to be replaced by a summary, which is all that the next turns will see of it.',
  'Write that summary now, and nothing else: the task and what the user asked for; what has been done, decided and',
  'found (files, commands, results, errors); what is still to do, in order; and any exact names, values or snippets',
  'needed to go on. Be complete but brief. Do not call any tool.',
].join(' ');

/** How a summary is put back before the turns that follow it. */
const SUMMARY_OPENING = 'Summary of the conversation so far (earlier turns were compacted into it):\n\n';

const PREFIX = 'swy-cmp1.';

/** The input item type with which a client asks for a compaction. */
export const COMPACTION_TRIGGER = 'compaction_trigger';

/** Whether the request asks for a compaction: its last input item is the trigger. */
export function isCompactionRequest(req: Obj): boolean {
  const input = req.input;
  return Array.isArray(input) && input.length > 0 && isObj(input[input.length - 1]) && (input[input.length - 1] as Obj).type === COMPACTION_TRIGGER;
}

/** The compaction output item for a summary the upstream wrote. */
export function compactionItem(base: string, summary: string): ResponsesCompactionItem {
  return { id: itemId('cmp', base, 0), type: 'compaction', encrypted_content: PREFIX + Buffer.from(summary, 'utf8').toString('base64url') };
}

/** The summary a compaction item of this gateway holds, or null when the item is not one of ours. */
export function compactedSummary(item: Obj): string | null {
  const content = item.encrypted_content;
  if (typeof content !== 'string' || !content.startsWith(PREFIX)) return null;
  const encoded = content.slice(PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) return null;
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

/** The user message a compaction item of this gateway stands for in a later turn. */
export function summaryMessage(summary: string): string {
  return SUMMARY_OPENING + summary;
}
