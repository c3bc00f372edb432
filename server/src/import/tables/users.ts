import { ROLE, USER_STATUS } from '@switchyard/shared';
import { randomAlphanumeric } from '../../lib/random.js';
import { balance, knownCode } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, int, text, unixSeconds } from '../values.js';

/** one-api marks a deleted user with status 3 (and renames it); new-api soft-deletes with deleted_at. */
const ONE_API_DELETED = 3;

export function usersImport(): TableImport<'users'> {
  const affCodes = new Set<string>();
  return {
    source: 'users',
    target: 'users',
    reads: [
      'id', 'username', 'password', 'display_name', 'role', 'status', 'email', 'github_id', 'oidc_id', 'wechat_id', 'telegram_id',
      'access_token', 'quota', 'used_quota', 'request_count', 'group', 'aff_code', 'aff_count', 'aff_quota', 'aff_history',
      'inviter_id', 'setting', 'created_at', 'deleted_at',
    ],
    map(row, ctx) {
      let status = int(row.status, USER_STATUS.ENABLED);
      let deletedAt = unixSeconds(row.deleted_at);
      if (status === ONE_API_DELETED) {
        status = 2;
        deletedAt ??= ctx.now;
        ctx.note('one-api deleted user (status 3) kept as deleted');
      }
      let affCode = text(row.aff_code).trim();
      if (affCode === '' || affCodes.has(affCode)) {
        do affCode = randomAlphanumeric(4);
        while (affCodes.has(affCode));
        ctx.note('empty invite code replaced by a new one');
      }
      affCodes.add(affCode);
      status = knownCode(status, [USER_STATUS.ENABLED, USER_STATUS.DISABLED], USER_STATUS.DISABLED, 'status', ctx);
      const accessToken = text(row.access_token).trim();
      return {
        id: int(row.id),
        username: clip(text(row.username), 64),
        password: text(row.password),
        display_name: clip(text(row.display_name), 64),
        role: knownCode(int(row.role, ROLE.USER), [ROLE.USER, ROLE.ADMIN, ROLE.ROOT], ROLE.USER, 'role', ctx),
        status,
        email: clip(text(row.email), 255),
        github_id: text(row.github_id),
        wechat_id: text(row.wechat_id),
        telegram_id: text(row.telegram_id),
        oidc_id: text(row.oidc_id),
        access_token: accessToken === '' || deletedAt !== null ? null : accessToken,
        quota: balance(row.quota, 'quota', ctx),
        used_quota: balance(row.used_quota, 'used_quota', ctx),
        request_count: balance(row.request_count, 'request_count', ctx),
        group: clip(text(row.group, 'default') || 'default', 64),
        aff_code: affCode,
        aff_count: balance(row.aff_count, 'aff_count', ctx),
        aff_quota: balance(row.aff_quota, 'aff_quota', ctx),
        aff_history_quota: balance(row.aff_history, 'aff_history', ctx),
        inviter_id: int(row.inviter_id),
        setting: text(row.setting),
        created_at: int(row.created_at),
        deleted_at: deletedAt,
      };
    },
  };
}
