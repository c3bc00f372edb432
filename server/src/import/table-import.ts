import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Catalog } from './catalog.js';
import type { System } from './detect.js';
import type { SourceRow } from './values.js';

export interface ImportContext {
  system: System;
  catalog: Catalog;
  /** Unix seconds at the start of the import. */
  now: number;
  /** The source's QuotaPerUnit option (500000 when it kept the default). */
  quotaPerUnit: number;
  /** Says a row was changed on its way in (counted by reason in the summary). */
  note(reason: string): void;
  /** Whether the table being read has this column. */
  has(column: string): boolean;
}

export interface Skip {
  skip: string;
}

export const skip = (reason: string): Skip => ({ skip: reason });
export const isSkip = (v: unknown): v is Skip => typeof v === 'object' && v !== null && 'skip' in v;

export type TargetTable = 'users' | 'tokens' | 'channels' | 'options' | 'redemptions' | 'logs' | 'top_ups' | 'midjourneys' | 'tasks' | 'quota_data';

/** How one incumbent table becomes one of ours. One fresh object per import (mappers may keep state, e.g. codes seen). */
export interface TableImport<K extends TargetTable = TargetTable> {
  source: string;
  target: K;
  /** Source columns read; any other column the source has is listed in the summary as not carried. */
  reads: readonly string[];
  map(row: SourceRow, ctx: ImportContext): Insertable<Database[K]> | Skip;
  /** Writes one batch (default: one multi-row insert); returns the rows it added. */
  insert?(trx: Transaction<Database>, rows: Array<Insertable<Database[K]>>, ctx: ImportContext): Promise<number>;
  /** Runs in the table's transaction after its last batch. Returns extra summary lines. */
  finish?(trx: Transaction<Database>, ctx: ImportContext): Promise<string[]>;
}
