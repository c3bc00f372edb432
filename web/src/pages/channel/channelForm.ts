import { CHANNEL_OTHER_DEFAULTS, CHANNEL_TYPE } from '@switchyard/shared';
import type { ChannelDto, ChannelInput } from '../../api/channel';
import { t } from '../../lib/i18n';
import { splitList } from './health';
import { mergeSetting, paramOverrideProblem, proxyProblem, refererProblem, settingFields, titleProblem, type SettingFields } from './channelSettings';

/** The `other` default of a type (Azure's API version, iFlytek's Spark version), '' when it has none. */
export const otherDefault = (type: number): string => CHANNEL_OTHER_DEFAULTS[type] ?? '';

/** Templates of the drawer's JSON fields (spec §9). */
export const MODEL_MAPPING_TEMPLATE = JSON.stringify(
  { 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4', 'gpt-4-32k-0314': 'gpt-4-32k' },
  null,
  2,
);
export const STATUS_CODE_MAPPING_TEMPLATE = JSON.stringify({ '400': '500' }, null, 2);
export const VERTEX_REGION_TEMPLATE = JSON.stringify({ default: 'us-central1' }, null, 2);

/** What the drawer's form holds. */
interface ChannelFormFields {
  type: number;
  name: string;
  base_url: string;
  key: string;
  other: string;
  openai_organization: string;
  models: string[];
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  test_model: string;
  auto_ban: boolean;
  priority: number | null;
  weight: number | null;
  max_input_tokens: number;
  tag: string;
  param_override: string;
  /** The stored `setting` JSON: keys the form does not edit are kept. */
  setting: string;
}

/** The drawer's values with the fields kept inside `setting`. */
export type ChannelFormValues = ChannelFormFields & SettingFields;

/** The default new channel: type 1 (OpenAI), auto-ban on, group default (spec §9). */
export function newChannelValues(): ChannelFormValues {
  return {
    type: CHANNEL_TYPE.OPENAI,
    name: '',
    base_url: '',
    key: '',
    other: '',
    openai_organization: '',
    models: [],
    groups: ['default'],
    model_mapping: '',
    status_code_mapping: '',
    test_model: '',
    auto_ban: true,
    priority: 0,
    weight: 0,
    max_input_tokens: 0,
    tag: '',
    param_override: '',
    setting: '',
    ...settingFields(''),
  };
}

export function channelToValues(c: ChannelDto): ChannelFormValues {
  return {
    type: c.type,
    name: c.name,
    base_url: c.base_url ?? '',
    key: c.key ?? '',
    other: c.other ?? '',
    openai_organization: c.openai_organization ?? '',
    models: splitList(c.models),
    groups: splitList(c.group),
    model_mapping: c.model_mapping ?? '',
    status_code_mapping: c.status_code_mapping ?? '',
    test_model: c.test_model ?? '',
    auto_ban: c.auto_ban !== 0,
    priority: c.priority ?? 0,
    weight: c.weight ?? 0,
    max_input_tokens: c.max_input_tokens ?? 0,
    tag: c.tag ?? '',
    param_override: c.param_override ?? '',
    setting: c.setting ?? '',
    ...settingFields(c.setting),
  };
}

/** Empty, or a JSON object. */
function isJsonObjectOrEmpty(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The first rule the form breaks, as the message to show; null when it may be sent. */
export function validateChannel(v: ChannelFormValues, isEdit: boolean): string | null {
  if (!isEdit && (v.name.trim() === '' || v.key.trim() === '')) return t('请填写渠道名称和渠道密钥！');
  if (v.models.length === 0) return t('请至少选择一个模型！');
  if (!isJsonObjectOrEmpty(v.model_mapping)) return t('模型映射必须是合法的 JSON 格式！');
  if (!isJsonObjectOrEmpty(v.status_code_mapping)) return t('状态码复写必须是合法的 JSON 格式！');
  const settingsProblem = paramOverrideProblem(v.param_override) ?? proxyProblem(v.proxy) ?? refererProblem(v.http_referer) ?? titleProblem(v.x_title);
  if (settingsProblem) return settingsProblem;
  if (v.type === CHANNEL_TYPE.VERTEX_AI) {
    const region = v.other.trim();
    if (region === '') return t('请填写部署地区');
    if (region.startsWith('{')) {
      if (!isJsonObjectOrEmpty(region)) return t('部署地区必须是合法的 JSON 格式！');
      if (!(JSON.parse(region) as Record<string, unknown>).default) return t('部署地区 JSON 必须包含 default 字段');
    }
  }
  return null;
}

/** The wire payload: lists comma-joined, trailing slash of the base URL stripped, type defaults for `other`. */
export function toChannelInput(v: ChannelFormValues): ChannelInput {
  const other = v.other.trim() || otherDefault(v.type);
  return {
    type: v.type,
    name: v.name.trim(),
    base_url: v.base_url.trim().replace(/\/+$/, ''),
    key: v.key.trim(),
    other,
    openai_organization: v.type === CHANNEL_TYPE.OPENAI ? v.openai_organization.trim() : '',
    models: v.models.join(','),
    group: v.groups.join(','),
    model_mapping: v.model_mapping.trim(),
    status_code_mapping: v.status_code_mapping.trim(),
    test_model: v.test_model.trim(),
    auto_ban: v.auto_ban ? 1 : 0,
    priority: v.priority ?? 0,
    weight: v.weight ?? 0,
    max_input_tokens: v.max_input_tokens ?? 0,
    tag: v.tag.trim(),
    param_override: v.param_override.trim(),
    setting: mergeSetting(v.setting, v),
  };
}

/** A copy of a channel: the same settings under the name 'name_复制', without id, status or statistics. */
export function copyOf(c: ChannelDto): ChannelInput {
  return {
    type: c.type,
    name: t('{name}_复制', { name: c.name }),
    base_url: c.base_url,
    key: c.key ?? '',
    other: c.other,
    openai_organization: c.openai_organization,
    models: c.models,
    group: c.group,
    model_mapping: c.model_mapping,
    status_code_mapping: c.status_code_mapping,
    test_model: c.test_model,
    auto_ban: c.auto_ban,
    priority: c.priority,
    weight: c.weight,
    max_input_tokens: c.max_input_tokens,
    tag: c.tag,
    setting: c.setting,
    param_override: c.param_override,
  };
}

/**
 * Adds comma-separated custom names to the selected models. Returns the new list and whether some were already
 * present.
 */
export function addCustomModels(current: string[], input: string): { models: string[]; duplicates: boolean } {
  const names = input
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const models = [...current];
  let duplicates = false;
  for (const name of names) {
    if (models.includes(name)) duplicates = true;
    else models.push(name);
  }
  return { models, duplicates };
}

/** The first key of a multi-line key field. */
export const firstKey = (key: string): string =>
  key
    .split('\n')
    .map((k) => k.trim())
    .find((k) => k !== '') ?? '';

/** POST /api/channel/fix answers how many channels it repaired (orphaned abilities included). */
export function fixResultText(result: unknown): string {
  return t('已修复 {n} 个通道', { n: Number(result) || 0 });
}
