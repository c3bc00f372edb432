import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Bus } from '../cache/bus.js';
import { loadOptionRow, loadOptionRows, saveOptionRow } from '../store/options.js';
import { isOptionKey, OPTION_DEFAULTS, type OptionKey, type OptionValue, type OptionValues } from './defaults.js';
import { parseOption, serializeOption } from './parse.js';

export { isOptionKey, isSecretKey, OPTION_DEFAULTS, type OptionKey, type OptionValue } from './defaults.js';

const TOPIC = 'options';

/**
 * Typed, in-memory view of the options table. Reads are plain property lookups (hot path); writes go to the DB
 * first, then the memory copy, then other nodes through the bus.
 */
/** Derived values kept per snapshot of the options; past this many the memory starts over. */
const MAX_DERIVED = 10_000;

export class Options {
  private values: OptionValues = { ...OPTION_DEFAULTS };
  /** Values computed from the current options (prices per model and group...), dropped whenever an option changes. */
  private derived = new Map<string, unknown>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly bus: Bus,
    private readonly warn: (msg: string) => void = () => {},
  ) {
    bus.subscribe(TOPIC, (key) => this.reloadKey(key).catch((err: unknown) => this.warn(`reloading option ${key} failed: ${String(err)}`)));
  }

  get<K extends OptionKey>(key: K): OptionValue<K> {
    return this.values[key];
  }

  /**
   * A value computed from the options, remembered until any option changes (on this node or, through the bus,
   * another): hot-path lookups such as a model's price pay for the computation once. `compute` must read options
   * only through this instance; what it throws is not remembered.
   */
  derive<T>(key: string, compute: () => T): T {
    const derived = this.derived;
    if (derived.has(key)) return derived.get(key) as T;
    const value = compute();
    if (derived === this.derived) {
      if (derived.size >= MAX_DERIVED) derived.clear();
      derived.set(key, value);
    }
    return value;
  }

  private replace(next: OptionValues): void {
    this.values = next;
    this.derived = new Map();
  }

  /** Raw string form (as stored), for the option list. */
  raw(key: OptionKey): string {
    return serializeOption(this.values[key]);
  }

  async load(): Promise<void> {
    const next: OptionValues = { ...OPTION_DEFAULTS };
    for (const { key, value } of await loadOptionRows(this.db)) this.apply(next, key, value);
    this.replace(next);
  }

  /** Validates and saves; returns an error message instead of saving when the value is not acceptable. */
  async set(key: string, raw: string): Promise<string | null> {
    if (!isOptionKey(key)) return `未知的配置项：${key}`;
    const parsed = parseOption(key, raw);
    if (!parsed.ok) return parsed.message;
    await saveOptionRow(this.db, key, raw);
    this.replace({ ...this.values, [key]: parsed.value });
    await this.bus.publish(TOPIC, key);
    return null;
  }

  private async reloadKey(key: string): Promise<void> {
    if (!isOptionKey(key)) return;
    const raw = await loadOptionRow(this.db, key);
    const next = { ...this.values };
    if (raw === undefined) (next as Record<string, unknown>)[key] = OPTION_DEFAULTS[key];
    else this.apply(next, key, raw);
    this.replace(next);
  }

  private apply(target: OptionValues, key: string, raw: string): void {
    if (!isOptionKey(key)) return; // rows of retired keys are kept but ignored
    const parsed = parseOption(key, raw);
    if (parsed.ok) (target as Record<string, unknown>)[key] = parsed.value;
    else this.warn(`option ${key} has an unusable stored value (${parsed.message}); using the default`);
  }
}

/** What code that only reads settings needs (conversions, providers). */
export type OptionReader = Pick<Options, 'get'>;

/** The built-in values, for code run outside an app (pure tests). */
export const DEFAULT_OPTIONS: OptionReader = {
  get: (key) => OPTION_DEFAULTS[key],
};
