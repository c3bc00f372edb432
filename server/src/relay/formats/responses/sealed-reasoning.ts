import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * A Responses client that keeps no state on the server (Codex: `store: false`, `include:
 * ["reasoning.encrypted_content"]`) gets the upstream's thinking back as `reasoning` items whose `encrypted_content`
 * it returns on the next turn. On a converted channel that blob is the gateway's own: the thinking text and the
 * upstream's signature (a Claude thinking block's `signature`, a Gemini `thoughtSignature`), sealed with AES-256-GCM
 * under a key derived from SESSION_SECRET, so every worker and node that shares the secret opens it and no client
 * can forge or alter one (a signature Claude never issued would be refused upstream). A blob that does not open —
 * OpenAI's own, another deployment's, a secret that changed — is read as no signature: the turn goes on with the
 * item's summary text, as it would without the blob.
 */

/** The thinking of one assistant turn as the blob carries it. */
export interface SealedReasoning {
  text: string;
  signature: string;
}

const PREFIX = 'sy1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

let key: Buffer = randomBytes(32);

/** Derives the sealing key from the deployment's secret; until called, a random key of this process is used. */
export function configureReasoningSeal(secret: string): void {
  key = Buffer.from(hkdfSync('sha256', secret, 'switchyard', 'responses reasoning seal v1', 32));
}

export function sealReasoning(r: SealedReasoning): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify({ t: r.text, s: r.signature }), 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed thinking, or null when the blob is not one this deployment sealed. */
export function unsealReasoning(blob: unknown): SealedReasoning | null {
  if (typeof blob !== 'string' || !blob.startsWith(PREFIX)) return null;
  const raw = Buffer.from(blob.slice(PREFIX.length), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(plain) as { t?: unknown; s?: unknown };
    if (typeof parsed.t !== 'string' || typeof parsed.s !== 'string') return null;
    return { text: parsed.t, signature: parsed.s };
  } catch {
    return null;
  }
}

/** Whether the request asks for reasoning items to carry encrypted_content. */
export function wantsSealedReasoning(req: Record<string, unknown>): boolean {
  return Array.isArray(req.include) && req.include.includes('reasoning.encrypted_content');
}
