import { TOKEN_STATUS } from '@switchyard/shared';
import { splitList } from '../../store/abilities.js';
import { generateTokenKey } from '../../store/tokens.js';
import { balance, keptKey, knownCode, MIN_KEY_LENGTH } from '../hostile-values.js';
import { skip, type TableImport } from '../table-import.js';
import { clip, flag, int, text, unixSeconds } from '../values.js';

/** Our tokens.key is char(48), the width both incumbents generate; later new-api allows up to 128. */
const KEY_WIDTH = 48;

export function tokensImport(): TableImport<'tokens'> {
  return {
    source: 'tokens',
    target: 'tokens',
    reads: [
      'id', 'user_id', 'key', 'status', 'name', 'created_time', 'accessed_time', 'expired_time', 'remain_quota', 'unlimited_quota',
      'used_quota', 'model_limits_enabled', 'model_limits', 'allow_ips', 'group', 'deleted_at', 'models', 'subnet',
    ],
    map(row, ctx) {
      // Keys are kept byte for byte (no sk-, case-sensitive) so clients keep working.
      let key = text(row.key);
      if (key.length > KEY_WIDTH) return skip(`key longer than ${KEY_WIDTH} characters`);
      if (!keptKey(key)) {
        key = generateTokenKey();
        ctx.note(`key shorter than ${MIN_KEY_LENGTH} characters or not only letters and digits: given a new key (its owner copies it from the token list)`);
      }
      let modelLimits = text(row.model_limits);
      let limitsOn = flag(row.model_limits_enabled);
      let allowIps = text(row.allow_ips);
      if (ctx.system === 'one-api') {
        // one-api: `models` (comma list, empty = all) and `subnet` (comma list of CIDRs).
        modelLimits = splitList(text(row.models)).join(',');
        limitsOn = modelLimits === '' ? 0 : 1;
        allowIps = splitList(text(row.subnet)).join('\n');
      }
      return {
        id: int(row.id),
        user_id: int(row.user_id),
        key,
        status: knownCode(int(row.status, TOKEN_STATUS.ENABLED), Object.values(TOKEN_STATUS), TOKEN_STATUS.DISABLED, 'status', ctx),
        name: clip(text(row.name), 64),
        created_time: int(row.created_time),
        accessed_time: int(row.accessed_time),
        expired_time: int(row.expired_time, -1),
        remain_quota: balance(row.remain_quota, 'remain_quota', ctx),
        unlimited_quota: flag(row.unlimited_quota),
        model_limits_enabled: limitsOn,
        model_limits: modelLimits,
        allow_ips: allowIps,
        used_quota: balance(row.used_quota, 'used_quota', ctx),
        group: clip(text(row.group), 64),
        deleted_at: unixSeconds(row.deleted_at),
      };
    },
  };
}
