import { REDEMPTION_STATUS } from '@switchyard/shared';
import { balance, knownCode } from '../hostile-values.js';
import { skip, type TableImport } from '../table-import.js';
import { clip, int, text, unixSeconds } from '../values.js';

export function redemptionsImport(): TableImport<'redemptions'> {
  return {
    source: 'redemptions',
    target: 'redemptions',
    reads: ['id', 'user_id', 'key', 'status', 'name', 'quota', 'created_time', 'redeemed_time', 'used_user_id', 'deleted_at', 'expired_time'],
    map(row, ctx) {
      const key = text(row.key);
      if (key.length > 32) return skip('code longer than 32 characters');
      let status = knownCode(int(row.status, REDEMPTION_STATUS.UNUSED), Object.values(REDEMPTION_STATUS), REDEMPTION_STATUS.DISABLED, 'status', ctx);
      // Later new-api codes may expire (expired_time, 0 = never); we have no expiry, so an expired unused code is
      // disabled and a live one loses its expiry (reported).
      const expires = int(row.expired_time);
      if (status === REDEMPTION_STATUS.UNUSED && expires > 0) {
        if (expires <= ctx.now) {
          status = REDEMPTION_STATUS.DISABLED;
          ctx.note('expired unused code imported disabled');
        } else ctx.note('unused code imported without its expiry time');
      }
      return {
        id: int(row.id),
        user_id: int(row.user_id),
        key,
        status,
        name: clip(text(row.name), 64),
        quota: balance(row.quota, 'quota', ctx),
        created_time: int(row.created_time),
        redeemed_time: int(row.redeemed_time),
        used_user_id: int(row.used_user_id),
        deleted_at: unixSeconds(row.deleted_at),
      };
    },
  };
}
