import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { USER_STATUS } from '@switchyard/shared';
import type { Database, UserRow } from '../db/schema.js';
import { findUserById, revokeSessions } from '../store/users.js';

/*
 * A session is a signed cookie `<user id>.<expires at>.<password fingerprint>.<session epoch>`. It holds while the
 * account's password hash and session epoch are what they were when it was signed: a password written anywhere
 * ends it, and so does raising the epoch (sign-out, a ban). Both live in the user row, which every guarded call
 * reads anyway, so an ended session is refused at once by every worker and node at no extra cost.
 */

export const SESSION_COOKIE = 'session';
const MAX_AGE_SECONDS = 30 * 24 * 3600;

type Db = Kysely<Database>;
type SessionOwner = Pick<UserRow, 'id' | 'password' | 'session_epoch'>;

function passwordFingerprint(user: Pick<UserRow, 'password'>): string {
  return createHash('sha256').update(user.password).digest('hex').slice(0, 16);
}

export interface SessionClaims {
  userId: number;
  expiresAt: number;
  fingerprint: string;
  epoch: number;
}

/** The unsigned cookie value of a session of this account as it is stored now. */
export function sessionValue(user: SessionOwner, expiresAt: number): string {
  return `${user.id}.${expiresAt}.${passwordFingerprint(user)}.${user.session_epoch}`;
}

/**
 * Signs the browser in to the account as it is stored after every write of the sign-in (an imported hash replaced,
 * a binding rewritten): a session signed from a row read earlier would carry a fingerprint that no longer matches.
 * Returns that row (undefined, and no session, when the account is gone).
 */
export async function openSession(reply: FastifyReply, db: Db, userId: number, secure: boolean): Promise<UserRow | undefined> {
  const user = await findUserById(db, userId);
  if (!user) return undefined;
  const expiresAt = Math.floor(Date.now() / 1000) + MAX_AGE_SECONDS;
  reply.setCookie(SESSION_COOKIE, sessionValue(user, expiresAt), {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: MAX_AGE_SECONDS,
  });
  return user;
}

export function closeSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The claims of a validly signed, unexpired session cookie, or null. */
export function readSession(request: FastifyRequest): SessionClaims | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const [id, exp, fingerprint, epochText] = unsigned.value.split('.');
  const userId = Number(id);
  const expiresAt = Number(exp);
  // Cookies signed before sessions had epochs belong to epoch 0, every account's first.
  const epoch = epochText === undefined ? 0 : Number(epochText);
  if (!Number.isInteger(userId) || !Number.isInteger(expiresAt) || !Number.isInteger(epoch) || !fingerprint) return null;
  if (expiresAt < Date.now() / 1000) return null;
  return { userId, expiresAt, fingerprint, epoch };
}

function sessionMatches(claims: SessionClaims, user: UserRow): boolean {
  return claims.fingerprint === passwordFingerprint(user) && claims.epoch === user.session_epoch;
}

/**
 * The account of the request's session, or null when it has none or it ended. A banned account's ended session
 * still names it, so the browser hears that the account is banned rather than being sent to a sign-in that cannot
 * succeed; callers refuse such accounts (their status is checked on every call).
 */
export async function sessionAccount(db: Db, request: FastifyRequest): Promise<UserRow | null> {
  const claims = readSession(request);
  if (!claims) return null;
  const user = await findUserById(db, claims.userId);
  if (!user) return null;
  return sessionMatches(claims, user) || user.status !== USER_STATUS.ENABLED ? user : null;
}

/** Ends every session of the account, on every worker and node (its next call reads the raised epoch). */
export async function endSessions(db: Db, userId: number): Promise<void> {
  await revokeSessions(db, userId);
}
