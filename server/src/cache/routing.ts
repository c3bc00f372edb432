import type { Kysely } from 'kysely';
import { CHANNEL_STATUS } from '@switchyard/shared';
import type { ChannelRow, Database } from '../db/schema.js';
import type { Bus } from './bus.js';
import { channelSettings, type ChannelSettings } from '../relay/channel-settings.js';
import { keyPoolOf, type KeyPool } from '../store/channel-keys.js';

/*
 * The in-memory routing table the relay reads on every request. A load reads channels and enabled abilities and
 * builds a complete new snapshot, then swaps it in with one assignment: readers hold whichever snapshot they got
 * and never see half a table. Lookups are map reads.
 */

export interface RoutedChannel {
  id: number;
  type: number;
  name: string;
  key: string;
  baseUrl: string;
  other: string;
  organization: string;
  testModel: string;
  models: string[];
  groups: string[];
  modelMapping: Record<string, string>;
  statusCodeMapping: Record<string, string>;
  priority: number;
  weight: number;
  autoBan: boolean;
  status: number;
  setting: Record<string, unknown>;
  /** param_override without the keys it may not set (settings.paramOverride). */
  paramOverride: Readonly<Record<string, unknown>>;
  /** param_override, proxy and system prompt, parsed once here (relay/channel-settings.ts); absent means none. */
  settings?: ChannelSettings;
  /** A multi-key channel's enabled keys (relay/channel-keys.ts chooses one per call); null: `key` is used whole. */
  keyPool?: KeyPool | null;
}

/** Topic on which nodes announce channel changes (the store publishes it). */
const TOPIC = 'channels';
const MAX_MEMO = 1000;

export function jsonObject(text: string): Record<string, unknown> {
  if (!text || !text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A JSON object of names as strings (numbers are accepted: status-code maps are often written {"400":500}). */
function stringMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(jsonObject(text))) {
    if (typeof v === 'string' && v !== '') out[k] = v;
    else if (typeof v === 'number') out[k] = String(v);
  }
  return out;
}

const list = (text: string) => [...new Set(text.split(',').map((s) => s.trim()).filter((s) => s !== ''))];

/** A channel row in the relay's shape. */
export function routedChannel(row: ChannelRow): RoutedChannel {
  const setting = jsonObject(row.setting);
  const settings = channelSettings(setting, jsonObject(row.param_override));
  return Object.freeze({
    id: row.id,
    type: row.type,
    name: row.name,
    key: row.key,
    baseUrl: row.base_url.replace(/\/+$/, ''),
    other: row.other,
    organization: row.openai_organization,
    testModel: row.test_model,
    models: list(row.models),
    groups: list(row.group),
    modelMapping: stringMap(row.model_mapping),
    statusCodeMapping: stringMap(row.status_code_mapping),
    priority: Number(row.priority),
    weight: Number(row.weight),
    autoBan: row.auto_ban === 1,
    status: row.status,
    setting,
    paramOverride: settings.paramOverride,
    settings,
    keyPool: keyPoolOf(row),
  });
}

interface Snapshot {
  byId: ReadonlyMap<number, RoutedChannel>;
  /** `${group}\n${model}` -> tiers, highest priority first. */
  tiers: ReadonlyMap<string, RoutedChannel[][]>;
  /** group -> its enabled models, sorted. */
  models: ReadonlyMap<string, string[]>;
  /** `${group}\n${model}` of every ability, enabled or not: models some channel lists, even one switched off. */
  listed: ReadonlySet<string>;
  /** Answers of models() for several groups, filled lazily (bounded). */
  memo: Map<string, string[]>;
}

const NONE: RoutedChannel[][] = Object.freeze([]) as unknown as RoutedChannel[][];
const NO_MODELS: string[] = Object.freeze([]) as unknown as string[];
const routeKey = (group: string, model: string) => `${group}\n${model}`;

function byPreference(a: RoutedChannel, b: RoutedChannel): number {
  return b.priority - a.priority || b.weight - a.weight || a.id - b.id;
}

export function buildSnapshot(rows: ChannelRow[], abilities: Array<{ group: string; model: string; channel_id: number; enabled: number }>): Snapshot {
  const byId = new Map<number, RoutedChannel>();
  for (const row of rows) byId.set(row.id, routedChannel(row));

  const candidates = new Map<string, RoutedChannel[]>();
  const models = new Map<string, Set<string>>();
  const listed = new Set<string>();
  for (const a of abilities) {
    if (byId.has(a.channel_id)) listed.add(routeKey(a.group, a.model));
    if (Number(a.enabled) !== 1) continue;
    const channel = byId.get(a.channel_id);
    // The channel row decides: abilities only say where it may serve.
    if (!channel || channel.status !== CHANNEL_STATUS.ENABLED) continue;
    const key = routeKey(a.group, a.model);
    const found = candidates.get(key);
    if (found) {
      if (!found.includes(channel)) found.push(channel);
    } else candidates.set(key, [channel]);
    const set = models.get(a.group);
    if (set) set.add(a.model);
    else models.set(a.group, new Set([a.model]));
  }

  const tiers = new Map<string, RoutedChannel[][]>();
  for (const [key, channels] of candidates) {
    channels.sort(byPreference);
    const out: RoutedChannel[][] = [];
    for (const c of channels) {
      const last = out[out.length - 1];
      if (last && last[0].priority === c.priority) last.push(c);
      else out.push([c]);
    }
    for (const tier of out) Object.freeze(tier);
    tiers.set(key, Object.freeze(out) as RoutedChannel[][]);
  }
  const sortedModels = new Map<string, string[]>();
  for (const [group, set] of models) sortedModels.set(group, Object.freeze([...set].sort()) as string[]);
  return { byId, tiers, models: sortedModels, listed, memo: new Map() };
}

const EMPTY: Snapshot = { byId: new Map(), tiers: new Map(), models: new Map(), listed: new Set(), memo: new Map() };

export class RoutingTable {
  private snapshot: Snapshot = EMPTY;
  /** The load in flight, and whether another one must follow it (a change arrived while it was reading). */
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Kysely<Database>,
    bus?: Bus,
    private readonly warn: (message: string, err: unknown) => void = () => {},
  ) {
    bus?.subscribe(TOPIC, () => this.load().catch((err: unknown) => this.warn('reloading the routing table failed', err)));
  }

  /** Enabled channels able to serve (group, model), grouped in priority tiers, highest priority first. */
  tiers(group: string, model: string): RoutedChannel[][] {
    return this.snapshot.tiers.get(routeKey(group, model)) ?? NONE;
  }

  /**
   * Whether some channel lists (group, model), enabled or not. A model no channel lists is unknown to the group
   * (404); a listed one without an enabled channel is only unavailable for now (503).
   */
  lists(group: string, model: string): boolean {
    return this.snapshot.listed.has(routeKey(group, model));
  }

  /** Every channel, whatever its status. */
  allChannels(): Iterable<RoutedChannel> {
    return this.snapshot.byId.values();
  }

  /** Any channel by id, whatever its status. */
  channel(id: number): RoutedChannel | undefined {
    return this.snapshot.byId.get(id);
  }

  /** Distinct enabled models of these groups, sorted. */
  models(groups: string[]): string[] {
    const snap = this.snapshot;
    if (groups.length === 1) return snap.models.get(groups[0]) ?? NO_MODELS;
    const key = groups.join('\n');
    const memo = snap.memo.get(key);
    if (memo) return memo;
    const set = new Set<string>();
    for (const g of groups) for (const m of snap.models.get(g) ?? []) set.add(m);
    const out = Object.freeze([...set].sort()) as string[];
    if (snap.memo.size < MAX_MEMO) snap.memo.set(key, out);
    return out;
  }

  /** Every channel of the current snapshot. */
  all(): RoutedChannel[] {
    return [...this.snapshot.byId.values()];
  }

  /**
   * Full rebuild from the DB. Loads never overlap: a call during a load waits for one more load that starts after
   * the current one, so the table always ends up reflecting every change made before the call.
   */
  load(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async () => {
      try {
        do {
          this.again = false;
          this.snapshot = await this.read();
        } while (this.again);
      } finally {
        this.running = null;
      }
    };
    this.running = run();
    return this.running;
  }

  private async read(): Promise<Snapshot> {
    const rows = await this.db.selectFrom('channels').selectAll().execute();
    const abilities = await this.db.selectFrom('abilities').select(['group', 'model', 'channel_id', 'enabled']).execute();
    return buildSnapshot(rows, abilities);
  }
}
