import type { ChannelDto, Envelope } from '@switchyard/shared';
import { api, request, unwrap } from './client';

export type { ChannelDto };

/** The fields the drawer sends on create and update (tag, setting and param_override only when copying). */
export type ChannelInput = Pick<
  ChannelDto,
  | 'name'
  | 'type'
  | 'openai_organization'
  | 'base_url'
  | 'other'
  | 'model_mapping'
  | 'status_code_mapping'
  | 'models'
  | 'group'
  | 'auto_ban'
  | 'test_model'
  | 'priority'
  | 'weight'
  | 'max_input_tokens'
> &
  Partial<Pick<ChannelDto, 'tag' | 'setting' | 'param_override'>> & {
    /** Several keys, one per line, make one channel each on create; blank on update keeps the stored key. */
    key: string;
  };

/** How a create treats several keys: one channel each (batch) or one channel choosing among them per call. */
export interface CreateMode {
  mode: 'batch' | 'multi_to_single';
  multi_key_mode: 'random' | 'polling';
}

/** Single-channel test and balance answers carry their result next to success/message (data may hold it too). */
type ResultEnvelope<K extends string> = Envelope<Partial<Record<K, number>>> & Partial<Record<K, number>>;

export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds. */
  time: number;
}

export interface BalanceResult {
  success: boolean;
  message: string;
  balance: number;
}

export const channelApi = {
  list: (p: number, pageSize: number, idSort: boolean) =>
    unwrap(api.get<ChannelDto[]>('/api/channel/', { p, page_size: pageSize, id_sort: idSort })),
  search: (keyword: string, group: string, model: string, idSort: boolean) =>
    unwrap(api.get<ChannelDto[]>('/api/channel/search', { keyword, group, model, id_sort: idSort })),
  /** silent: the caller shows its own failure text. */
  get: (id: number, silent = false) => unwrap(api.get<ChannelDto>(`/api/channel/${id}`, undefined, { silent })),
  /** The key field may hold several keys, one per line: one channel each. */
  /** Resolves with the ids of the channels created; `multi_to_single` makes one channel holding every key. */
  create: (input: ChannelInput & Partial<CreateMode>, silent = false) => unwrap(api.post<number[]>('/api/channel/', input, { silent })),
  /** Only the fields sent change; status may be 1 (enable) or 2 (disable). */
  update: (id: number, changes: Partial<ChannelInput> & { status?: number }) =>
    unwrap(api.put<ChannelDto>('/api/channel/', { id, ...changes })),
  remove: (id: number) => unwrap(api.delete(`/api/channel/${id}/`)),
  /** Tests one channel; a failed test resolves with success false (shown by the caller). */
  async test(id: number, model?: string): Promise<ChannelTestResult> {
    const res = await request<{ time?: number }>('GET', `/api/channel/test/${id}`, {
      query: { model: model || undefined },
      silent: true,
    });
    const r = res as ResultEnvelope<'time'>;
    return { success: r.success, message: r.message, time: Number(r.time ?? r.data?.time ?? 0) };
  },
  testAll: () => unwrap(api.get('/api/channel/test')),
  async updateBalance(id: number): Promise<BalanceResult> {
    const res = await request<{ balance?: number }>('GET', `/api/channel/update_balance/${id}/`, { silent: true });
    const r = res as ResultEnvelope<'balance'>;
    return { success: r.success, message: r.message, balance: Number(r.balance ?? r.data?.balance ?? 0) };
  },
  /** Resolves with how many were updated and the ids that failed. */
  updateAllBalances: () => unwrap(api.get<{ updated?: number; failed?: number[] }>('/api/channel/update_balance')),
  /** Resolves with the number of channels deleted. */
  deleteDisabled: () => unwrap(api.delete<number>('/api/channel/disabled')),
  batchDelete: (ids: number[]) => unwrap(api.post<number>('/api/channel/batch', { ids })),
  /** Resolves with the number of channels whose abilities were repaired (orphans included). */
  fix: () => unwrap(api.post<unknown>('/api/channel/fix')),
  /** Every model the gateway knows. */
  allModels: () => unwrap(api.get<unknown>('/api/channel/models')),
  fetchModels: (id: number, silent = false) =>
    unwrap(api.get<string[]>(`/api/channel/fetch_models/${id}`, undefined, { silent })),
  /** A page of tags, with every channel of each tag (channels without a tag are not listed). */
  listTagMode: (p: number, pageSize: number, idSort: boolean) =>
    unwrap(api.get<ChannelDto[]>('/api/channel/', { p, page_size: pageSize, id_sort: idSort, tag_mode: true })),
  enableTag: (tag: string) => unwrap(api.post<number>('/api/channel/tag/enabled', { tag })),
  disableTag: (tag: string) => unwrap(api.post<number>('/api/channel/tag/disabled', { tag })),
  /** Changes every channel of the tag; fields left out stay as they are. */
  editTag: (edit: TagEdit) => unwrap(api.put<number>('/api/channel/tag', edit)),
  /** The longest model list among the tag's channels (comma-joined). */
  tagModels: (tag: string) => unwrap(api.get<string>('/api/channel/tag/models', { tag })),
};

/** PUT /api/channel/tag: the tag, and what to change on all its channels. */
export interface TagEdit {
  tag: string;
  new_tag?: string;
  priority?: number;
  weight?: number;
  models?: string;
  groups?: string;
  model_mapping?: string;
  param_override?: string;
}

/**
 * While creating a channel the upstream model list comes straight from the browser: GET {base}/v1/models with the
 * first key. Throws on any failure.
 */
export async function fetchUpstreamModels(baseUrl: string, key: string): Promise<string[]> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/v1/models`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as { data?: Array<{ id?: unknown }> };
  if (!Array.isArray(body.data)) throw new Error('no data');
  return body.data.map((m) => m.id).filter((id): id is string => typeof id === 'string' && id !== '');
}
