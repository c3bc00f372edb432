import { z } from 'zod';
import { CHANNEL_OTHER_DEFAULTS, CHANNEL_STATUS, CHANNEL_TYPE } from '@switchyard/shared';
import type { ChannelRow } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { entityId } from './input.js';
import { checkParamOverride, checkSetting } from './channel-settings-input.js';
import { splitList } from '../store/abilities.js';
import type { ChannelChanges, ChannelInput } from '../store/channels.js';

/*
 * What the channel form sends, checked and brought to storage form. The console sends lists either as arrays or
 * comma-joined, JSON either as text or as objects, and numbers sometimes as strings; all are accepted.
 */

/** Most channels one batch delete names (the console selects from one page of at most 100). */
const MAX_BATCH = 1000;

export const CHANNEL_MESSAGES = {
  nameAndKey: '请填写渠道名称和渠道密钥！',
  noModels: '请至少选择一个模型！',
  badModelMapping: '模型映射必须是合法的 JSON 格式！',
  badStatusCodeMapping: '状态码复写必须是合法的 JSON 格式！',
  badSetting: '渠道额外设置必须是合法的 JSON 格式！',
  badParamOverride: '参数覆盖必须是合法的 JSON 格式！',
  modelTooLong: '模型名称过长',
  groupTooLong: '分组名称过长',
  fieldTooLong: '字段过长',
  badPriority: '优先级不能小于 -999',
  badWeight: '权重不能小于 0',
  badType: '无效的渠道类型',
  badStatus: '无效的渠道状态',
  vertexRegion: '请填写部署地区',
  vertexRegionDefault: '部署地区 JSON 必须包含 default 字段',
  vertexKey: 'Vertex AI 密钥必须是合法的 JSON',
  notFound: '渠道不存在',
  noSelection: '请先选择要删除的通道！',
  tooManySelected: `一次最多删除 ${MAX_BATCH} 个渠道`,
} as const;
const M = CHANNEL_MESSAGES;

const MAX_MODEL = 255;
const MAX_GROUP = 64;
const MAX_WEIGHT = 2_147_483_647;
const MAX_PRIORITY = 1_000_000_000_000;

/** Blank ('' / null) means "not given" (spec: a blank priority or weight is ignored). */
const blankable = z.union([z.number(), z.string(), z.null()]).transform((v, ctx) => {
  if (v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
  const n = typeof v === 'number' ? v : Number(v.trim());
  if (!Number.isInteger(n)) {
    ctx.addIssue({ code: 'custom', input: v });
    return z.NEVER;
  }
  return n;
});
const intLike = z.union([z.number().int(), z.string().regex(/^-?\d{1,15}$/).transform(Number)]);
const text = z.union([z.string(), z.null()]).transform((v) => v ?? '');
const listLike = z.union([z.string(), z.array(z.string()), z.null()]).transform((v) => (Array.isArray(v) ? v.join(',') : (v ?? '')));
const jsonLike = z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).transform((v) =>
  v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v),
);
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0));

const Fields = z.object({
  type: intLike,
  key: text,
  openai_organization: text,
  test_model: text,
  status: intLike,
  name: text,
  weight: blankable,
  base_url: text,
  other: text,
  models: listLike,
  group: listLike,
  groups: z.array(z.string()),
  model_mapping: jsonLike,
  status_code_mapping: jsonLike,
  priority: blankable,
  auto_ban: flag,
  tag: text,
  setting: jsonLike,
  param_override: jsonLike,
  max_input_tokens: intLike,
});

export const CreateBody = Fields.partial();
export const UpdateBody = Fields.partial().extend({ id: entityId });
/** POST /api/channel/fetch_models: the models of a channel not saved yet (the established gateway's call). */
export const FetchModelsBody = z.object({
  type: z.number().int(),
  key: z.string().trim().min(1, '请填写密钥'),
  base_url: z.string().trim().max(1024).default(''),
  other: z.string().max(4096).default(''),
  /** The channel's setting JSON (its proxy is used). */
  setting: z.string().max(65_536).default(''),
});
export const IdsBody = z.object({ ids: z.array(entityId).max(MAX_BATCH, M.tooManySelected).default([]) });
export type Sent = z.infer<typeof CreateBody>;

function objectJson(textValue: string, message: string, valueOk: (v: unknown) => boolean = () => true): string {
  const trimmed = textValue.trim();
  if (trimmed === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw fail(message);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail(message);
  if (!Object.values(parsed).every(valueOk)) throw fail(message);
  return trimmed;
}

const isStatusCode = (v: unknown) => /^[1-5]\d\d$/.test(String(v));

function checkLength(value: string | undefined, max: number): void {
  if (value !== undefined && [...value].length > max) throw fail(M.fieldTooLong);
}

/** Checks and normalises the fields that were sent (shared by create and update). */
export function normalise(sent: Sent): ChannelChanges {
  const out: ChannelChanges = {};
  if (sent.type !== undefined) {
    if (sent.type < 0 || sent.type > 10_000) throw fail(M.badType);
    out.type = sent.type;
  }
  if (sent.name !== undefined) out.name = sent.name.trim();
  if (sent.key !== undefined) out.key = sent.key.trim();
  if (sent.models !== undefined) {
    const models = splitList(sent.models);
    if (models.some((m) => m.length > MAX_MODEL)) throw fail(M.modelTooLong);
    out.models = models.join(',');
  }
  const groupText = sent.groups !== undefined ? sent.groups.join(',') : sent.group;
  if (groupText !== undefined) {
    const groups = splitList(groupText);
    if (groups.some((g) => [...g].length > MAX_GROUP)) throw fail(M.groupTooLong);
    out.group = groups.length > 0 ? groups.join(',') : 'default';
  }
  if (sent.model_mapping !== undefined) {
    out.model_mapping = objectJson(sent.model_mapping, M.badModelMapping, (v) => typeof v === 'string');
  }
  if (sent.status_code_mapping !== undefined) {
    const mapping = objectJson(sent.status_code_mapping, M.badStatusCodeMapping, isStatusCode);
    if (mapping !== '' && !Object.keys(JSON.parse(mapping) as object).every(isStatusCode)) throw fail(M.badStatusCodeMapping);
    if (mapping.length > 1024) throw fail(M.badStatusCodeMapping);
    out.status_code_mapping = mapping;
  }
  if (sent.setting !== undefined) out.setting = checkSetting(sent.setting);
  if (sent.param_override !== undefined) out.param_override = checkParamOverride(sent.param_override);
  if (sent.priority !== undefined) {
    if (sent.priority < -999) throw fail(M.badPriority);
    if (sent.priority > MAX_PRIORITY) throw fail(M.fieldTooLong);
    out.priority = sent.priority;
  }
  if (sent.weight !== undefined) {
    if (sent.weight < 0) throw fail(M.badWeight);
    if (sent.weight > MAX_WEIGHT) throw fail(M.fieldTooLong);
    out.weight = sent.weight;
  }
  if (sent.base_url !== undefined) out.base_url = sent.base_url.trim().replace(/\/+$/, '');
  if (sent.other !== undefined) out.other = sent.other.trim();
  if (sent.openai_organization !== undefined) out.openai_organization = sent.openai_organization.trim();
  if (sent.test_model !== undefined) out.test_model = sent.test_model.trim();
  if (sent.tag !== undefined) out.tag = sent.tag.trim();
  if (sent.auto_ban !== undefined) out.auto_ban = sent.auto_ban;
  if (sent.max_input_tokens !== undefined) out.max_input_tokens = Math.max(0, Math.min(MAX_WEIGHT, sent.max_input_tokens));
  checkLength(out.name, 255);
  checkLength(out.base_url, 512);
  checkLength(out.openai_organization, 255);
  checkLength(out.test_model, 255);
  checkLength(out.tag, 255);
  checkLength(out.group, 255);
  return out;
}

/** Vertex AI: the key is one service-account JSON, and `other` names the region (text, or a JSON map with default). */
function checkVertex(type: number, key: string | undefined, other: string): void {
  if (type !== CHANNEL_TYPE.VERTEX_AI) return;
  if (other === '') throw fail(M.vertexRegion);
  if (other.startsWith('{')) {
    const regions = objectJson(other, M.vertexRegionDefault);
    if (!Object.hasOwn(JSON.parse(regions) as object, 'default')) throw fail(M.vertexRegionDefault);
  }
  if (key !== undefined && key !== '') objectJson(key, M.vertexKey);
}

/** `other` for a type that has a default (Azure API version, iFlytek Spark version) when left empty. */
const otherWithDefault = (type: number, other: string) => other || CHANNEL_OTHER_DEFAULTS[type] || '';

/** One key per line makes one channel per key, except for types whose key is a JSON document. */
export function splitKeys(type: number, key: string): string[] {
  const trimmed = key.trim();
  if (type === CHANNEL_TYPE.VERTEX_AI || trimmed.startsWith('{') || trimmed.startsWith('[')) return trimmed ? [trimmed] : [];
  return [...new Set(trimmed.split('\n').map((k) => k.trim()).filter((k) => k !== ''))];
}

/** The channels a create call makes: one per key (`keysOf` splits the key text). */
export function channelsToCreate(sent: Sent, keysOf: (type: number, key: string) => string[] = splitKeys): ChannelInput[] {
  const v = normalise(sent);
  const type = v.type ?? CHANNEL_TYPE.OPENAI;
  const keys = keysOf(type, v.key ?? '');
  if (!v.name || keys.length === 0) throw fail(M.nameAndKey);
  if (!v.models) throw fail(M.noModels);
  const status = sent.status ?? CHANNEL_STATUS.ENABLED;
  if (status !== CHANNEL_STATUS.ENABLED && status !== CHANNEL_STATUS.MANUALLY_DISABLED) throw fail(M.badStatus);
  const other = otherWithDefault(type, v.other ?? '');
  checkVertex(type, keys[0], other);
  const base: Omit<ChannelInput, 'key'> = {
    type,
    name: v.name,
    status,
    openai_organization: v.openai_organization ?? '',
    test_model: v.test_model ?? '',
    weight: v.weight ?? 0,
    base_url: v.base_url ?? '',
    other,
    models: v.models,
    group: v.group ?? 'default',
    model_mapping: v.model_mapping ?? '',
    status_code_mapping: v.status_code_mapping ?? '',
    priority: v.priority ?? 0,
    auto_ban: v.auto_ban ?? 1,
    tag: v.tag ?? '',
    setting: v.setting ?? '',
    param_override: v.param_override ?? '',
    max_input_tokens: v.max_input_tokens ?? 0,
  };
  return keys.map((key) => ({ ...base, key }));
}

/**
 * The changes an update makes to `row`. A blank key keeps the stored one (lists never carry keys); a status may be
 * switched between enabled and manually disabled, or sent back unchanged.
 */
export function changesFor(row: ChannelRow, sent: Sent): ChannelChanges {
  const v = normalise(sent);
  if (v.name !== undefined && v.name === '') throw fail(M.nameAndKey);
  if (v.key === '') delete v.key;
  if (v.models !== undefined && v.models === '') throw fail(M.noModels);
  if (sent.status !== undefined && sent.status !== row.status) {
    if (sent.status !== CHANNEL_STATUS.ENABLED && sent.status !== CHANNEL_STATUS.MANUALLY_DISABLED) throw fail(M.badStatus);
    v.status = sent.status;
  }
  const type = v.type ?? row.type;
  if (v.other !== undefined || v.type !== undefined) {
    const other = otherWithDefault(type, v.other ?? row.other);
    if (other !== row.other) v.other = other;
  }
  checkVertex(type, v.key, v.other ?? row.other);
  return v;
}
