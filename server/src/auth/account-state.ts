import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ROLE } from '@switchyard/shared';
import { hashPassword, verifyPassword } from './password.js';
import { findUserByUsername, insertUser } from '../store/users.js';
import { randomAlphanumeric } from '../lib/random.js';

export const DEFAULT_ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';

/**
 * Facts about accounts the status endpoint needs on every call, computed once rather than per request
 * (checking a password hash costs tens of milliseconds).
 */
export class AccountState {
  rootUsesDefaultPassword = false;
  /** Settles when the check begun by startChecking is done (until then the flag says false). */
  checked: Promise<void> = Promise.resolve();

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * First start: create the super admin root/123456 with the starting quota. `hash`: the default password's hash,
   * when the caller began computing it earlier (it costs ~100 ms of a core, which can overlap the migrations).
   */
  async ensureRoot(initialQuota: number, hash?: Promise<string>): Promise<boolean> {
    const anyRoot = await this.db.selectFrom('users').select('id').where('role', '>=', ROLE.ROOT).executeTakeFirst();
    if (anyRoot) return false;
    await insertUser(this.db, {
      username: DEFAULT_ROOT_USERNAME,
      password: await (hash ?? hashPassword(DEFAULT_ROOT_PASSWORD)),
      display_name: 'Root User',
      role: ROLE.ROOT,
      status: 1,
      quota: initialQuota,
      aff_code: randomAlphanumeric(4),
    });
    this.rootUsesDefaultPassword = true;
    return true;
  }

  /** refresh() beside the rest of the start, so the server answers without waiting for a password hash. */
  startChecking(onError: (err: unknown) => void): void {
    this.checked = this.refresh().catch(onError);
  }

  async refresh(): Promise<void> {
    const root = await findUserByUsername(this.db, DEFAULT_ROOT_USERNAME);
    this.rootUsesDefaultPassword =
      !!root && root.deleted_at === null && root.role >= ROLE.ROOT && (await verifyPassword(DEFAULT_ROOT_PASSWORD, root.password));
  }
}
