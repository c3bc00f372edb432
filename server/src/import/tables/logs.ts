import { balance, recordedAmount } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, flag, int, text } from '../values.js';

export function logsImport(): TableImport<'logs'> {
  return {
    source: 'logs',
    target: 'logs',
    reads: [
      'id', 'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'model_name', 'quota', 'prompt_tokens',
      'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'token_id', 'group', 'ip', 'other', 'elapsed_time',
      'request_id', 'channel_name',
    ],
    map(row, ctx) {
      let useTime = int(row.use_time);
      let other = text(row.other);
      if (ctx.system === 'one-api') {
        // one-api: elapsed_time in ms (ours: seconds), request_id in its own column (ours: in `other`).
        useTime = Math.round(int(row.elapsed_time) / 1000);
        const requestId = text(row.request_id);
        other = requestId === '' ? '' : JSON.stringify({ request_id: requestId });
      }
      return {
        id: int(row.id),
        user_id: int(row.user_id),
        created_at: int(row.created_at),
        type: int(row.type),
        content: text(row.content),
        username: clip(text(row.username), 64),
        token_name: clip(text(row.token_name), 64),
        model_name: clip(text(row.model_name), 255),
        quota: recordedAmount(row.quota, 'quota', ctx),
        prompt_tokens: balance(row.prompt_tokens, 'prompt_tokens', ctx),
        completion_tokens: balance(row.completion_tokens, 'completion_tokens', ctx),
        use_time: useTime,
        is_stream: flag(row.is_stream),
        channel_id: int(row.channel_id),
        token_id: int(row.token_id),
        group: clip(text(row.group), 64),
        ip: clip(text(row.ip), 64),
        other,
        cache_tokens: cacheTokensOf(other),
      };
    },
  };
}

/** The cache reads the established gateway keeps in a consume log's `other` (`cache_tokens`), else 0. */
function cacheTokensOf(other: string): number {
  if (!other.includes('"cache_tokens"')) return 0;
  try {
    const parsed = JSON.parse(other) as { cache_tokens?: unknown };
    const n = parsed.cache_tokens;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}
