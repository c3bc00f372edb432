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
    db;
    rootUsesDefaultPassword = false;
    constructor(db) {
        this.db = db;
    }
    /** First start: create the super admin root/123456 with the starting quota. */
    async ensureRoot(initialQuota) {
        const anyRoot = await this.db.selectFrom('users').select('id').where('role', '>=', ROLE.ROOT).executeTakeFirst();
        if (anyRoot)
            return false;
        await insertUser(this.db, {
            username: DEFAULT_ROOT_USERNAME,
            password: await hashPassword(DEFAULT_ROOT_PASSWORD),
            display_name: 'Root User',
            role: ROLE.ROOT,
            status: 1,
            quota: initialQuota,
            aff_code: randomAlphanumeric(4),
        });
        return true;
    }
    async refresh() {
        const root = await findUserByUsername(this.db, DEFAULT_ROOT_USERNAME);
        this.rootUsesDefaultPassword =
            !!root && root.deleted_at === null && root.role >= ROLE.ROOT && (await verifyPassword(DEFAULT_ROOT_PASSWORD, root.password));
    }
}
//# sourceMappingURL=account-state.js.map