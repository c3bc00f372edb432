import { randomAlphanumeric } from '../../lib/random.js';
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
      let status = int(row.status, 1);
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
      const accessToken = text(row.access_token).trim();
      return {
        id: int(row.id),
        username: clip(text(row.username), 64),
        password: text(row.password),
        display_name: clip(text(row.display_name), 64),
        role: int(row.role, 1),
        status,
        email: clip(text(row.email), 255),
        github_id: text(row.github_id),
        wechat_id: text(row.wechat_id),
        telegram_id: text(row.telegram_id),
        oidc_id: text(row.oidc_id),
        access_token: accessToken === '' || deletedAt !== null ? null : accessToken,
        quota: int(row.quota),
        used_quota: int(row.used_quota),
        request_count: int(row.request_count),
        group: clip(text(row.group, 'default') || 'default', 64),
        aff_code: affCode,
        aff_count: int(row.aff_count),
        aff_quota: int(row.aff_quota),
        aff_history_quota: int(row.aff_history),
        inviter_id: int(row.inviter_id),
        setting: text(row.setting),
        created_at: int(row.created_at),
        deleted_at: deletedAt,
      };
    },
  };
}
