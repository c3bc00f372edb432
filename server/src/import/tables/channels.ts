import { CHANNEL_STATUS, CHANNEL_TYPE } from '@switchyard/shared';
import { abilityRows } from '../../store/abilities.js';
import { MULTI_KEY_MODES, parseChannelInfo, parseKeys, serializeChannelInfo, type MultiKeyMode } from '../../store/channel-keys.js';
import { mapChannelType } from '../channel-types.js';
import { balance, knownCode } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, float, int, jsonObject, text } from '../values.js';

/** Rows per INSERT of abilities (7 columns). */
const ABILITY_BATCH = 500;

/**
 * one-api keeps some credentials and the API version in `config` JSON, where new-api (and we) keep them in the key
 * and `other`: AWS ak|sk|region, Azure's api_version, a region for Vertex AI. Fields with no home are reported.
 */
function fromOneApiConfig(type: number, key: string, other: string, config: Record<string, unknown> | null) {
  const left: string[] = [];
  if (!config) return { key, other, left };
  const str = (k: string) => text(config[k]).trim();
  if (type === CHANNEL_TYPE.AWS && str('ak') && str('sk')) key = [str('ak'), str('sk'), str('region')].join('|');
  else if (str('ak') || str('sk')) left.push('ak/sk');
  if (str('api_version') && other === '') other = str('api_version');
  if (type === CHANNEL_TYPE.VERTEX_AI && str('region') && other === '') other = str('region');
  if (type === CHANNEL_TYPE.VERTEX_AI && str('vertex_ai_adc') && key === '') key = str('vertex_ai_adc');
  for (const k of ['user_id', 'library_id', 'plugin', 'vertex_ai_project_id']) if (str(k)) left.push(k);
  return { key, other, left };
}

/**
 * A later new-api's multi-key state (`channel_info`: JSON on MySQL/PostgreSQL, text on SQLite), stored as we store
 * it (the same fields): the size counted from the keys themselves (the incumbent's may be stale), per-key states of
 * indexes past the last key dropped. null for a single-key channel.
 */
function multiKeyInfo(raw: unknown, key: string): { info: string; mode: string } | null {
  const found = jsonObject(raw);
  const info = parseChannelInfo(found ? JSON.stringify(found) : null);
  if (!info) return null;
  const size = parseKeys(key).length;
  const within = <T>(byIndex: Record<string, T> | undefined) => (byIndex ? Object.fromEntries(Object.entries(byIndex).filter(([i]) => Number(i) < size)) : undefined);
  const carried = serializeChannelInfo({
    ...info,
    multi_key_size: size,
    multi_key_status_list: within(info.multi_key_status_list),
    multi_key_disabled_reason: within(info.multi_key_disabled_reason),
    multi_key_disabled_time: within(info.multi_key_disabled_time),
  });
  return { info: carried, mode: info.multi_key_mode };
}

export function channelsImport(): TableImport<'channels'> {
  const imported: Array<Parameters<typeof abilityRows>[0]> = [];
  return {
    source: 'channels',
    target: 'channels',
    reads: [
      'id', 'type', 'key', 'open_ai_organization', 'test_model', 'status', 'name', 'weight', 'created_time', 'test_time',
      'response_time', 'base_url', 'other', 'balance', 'balance_updated_time', 'models', 'group', 'used_quota', 'model_mapping',
      'status_code_mapping', 'priority', 'auto_ban', 'other_info', 'tag', 'setting', 'param_override', 'config', 'system_prompt',
      'channel_info',
    ],
    map(row, ctx) {
      const mapped = mapChannelType(ctx.system, int(row.type));
      let status = knownCode(int(row.status, CHANNEL_STATUS.ENABLED), Object.values(CHANNEL_STATUS), CHANNEL_STATUS.MANUALLY_DISABLED, 'status', ctx);
      let otherInfo = text(row.other_info);
      if (mapped.unsupported) {
        ctx.note(`imported disabled: ${mapped.unsupported}`);
        status = CHANNEL_STATUS.MANUALLY_DISABLED;
        otherInfo = JSON.stringify({ ...jsonObject(otherInfo), status_reason: `导入：${mapped.unsupported}`, status_time: ctx.now });
      }
      let key = text(row.key);
      // A later new-api keeps several keys in one channel: they come as they are, with the pool's mode and each key's state.
      const multiKey = multiKeyInfo(row.channel_info, key);
      if (multiKey && !MULTI_KEY_MODES.includes(multiKey.mode as MultiKeyMode)) {
        ctx.note(`multi-key mode "${multiKey.mode}" not offered: those channels use their first enabled key`);
      }
      let other = text(row.other);
      let setting = text(row.setting);
      if (ctx.system === 'one-api') {
        const moved = fromOneApiConfig(mapped.type, key, other, jsonObject(row.config));
        ({ key, other } = moved);
        if (moved.left.length > 0) ctx.note(`config fields not carried: ${moved.left.join(', ')}`);
        const systemPrompt = text(row.system_prompt).trim();
        if (systemPrompt !== '') setting = JSON.stringify({ system_prompt: systemPrompt });
      }
      const channel = {
        id: int(row.id),
        type: mapped.type,
        key,
        openai_organization: clip(text(row.open_ai_organization), 255),
        test_model: clip(text(row.test_model), 255),
        status,
        name: clip(text(row.name), 255),
        weight: int(row.weight),
        created_time: int(row.created_time),
        test_time: int(row.test_time),
        response_time: int(row.response_time),
        base_url: clip(text(row.base_url), 512),
        other,
        balance: float(row.balance),
        balance_updated_time: int(row.balance_updated_time),
        models: text(row.models),
        group: clip(text(row.group, 'default'), 255),
        used_quota: balance(row.used_quota, 'used_quota', ctx),
        model_mapping: text(row.model_mapping),
        status_code_mapping: clip(text(row.status_code_mapping), 1024),
        priority: int(row.priority),
        auto_ban: int(row.auto_ban, 1),
        other_info: otherInfo,
        tag: clip(text(row.tag), 255),
        setting,
        param_override: text(row.param_override),
        max_input_tokens: 0,
        channel_info: multiKey?.info ?? null,
      };
      imported.push(channel);
      return channel;
    },
    // Abilities are derived: rebuilt from the channels rather than copied (the incumbents' are often stale).
    async finish(trx) {
      const rows = imported.flatMap((c) => abilityRows(c));
      for (let i = 0; i < rows.length; i += ABILITY_BATCH) await trx.insertInto('abilities').values(rows.slice(i, i + ABILITY_BATCH)).execute();
      return [`abilities: ${rows.length} rebuilt from the channels`];
    },
  };
}
