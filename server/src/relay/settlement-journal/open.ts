import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { defaultJournalDir, journalDatabaseName } from './format.js';
import { SettlementJournal } from './journal.js';

/** Where a node journals settlements, and the database they belong to. */
export interface JournalPlace {
  dir: string;
  database: string;
}

export function journalPlaceOf(config: Config): JournalPlace {
  return { dir: config.settlementJournalDir || defaultJournalDir(config.sqlitePath), database: journalDatabaseName(config.sqlDsn, config.sqlitePath) };
}

/**
 * This process's settlement journal at `place`; with none (a database handed in by a test suite), in a folder of its
 * own that is removed when everything is written.
 */
export function openSettlementJournal(place: JournalPlace | null, log: FastifyBaseLogger): { place: JournalPlace; record: SettlementJournal } {
  const own = place === null;
  const where = place ?? { dir: mkdtempSync(path.join(os.tmpdir(), 'switchyard-journal-')), database: 'own' };
  return { place: where, record: new SettlementJournal({ ...where, log, ownDir: own }) };
}
