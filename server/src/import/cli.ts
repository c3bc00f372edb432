import type { Config } from '../config.js';
import { connect } from '../db/connect.js';
import { terminalProgress } from './progress.js';
import { ImportRefused, runImport } from './runner.js';
import { describeSource, openSource, parseSource } from './source.js';

export const USAGE = `usage: npm run import -- <source>

Imports a new-api or one-api database into the database Switchyard is configured for (SQL_DSN, or SQLITE_PATH).
<source> is an SQLite file (path or sqlite:/path), postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db
or user:pass@tcp(host:3306)/db. The target must be empty (a first start's untouched root account is allowed).`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the import the command line asked for; returns the exit code (0 done, 1 failed, 2 refused or misused). */
export async function runCli(args: string[], config: Config, io: CliIo, signal?: AbortSignal): Promise<number> {
  const positional = args.filter((a) => !a.startsWith('-'));
  if (args.includes('-h') || args.includes('--help')) {
    io.out(USAGE);
    return 0;
  }
  if (positional.length !== 1 || positional.length !== args.length) {
    io.err(USAGE);
    return 2;
  }
  const spec = parseSource(positional[0]);
  const label = describeSource(spec);
  const source = await openSource(spec);
  try {
    const target = await connect(config.sqlDsn, config.sqlitePath);
    try {
      const result = await runImport(source, label, target, { progress: terminalProgress(), signal });
      io.out(result.summary);
      return 0;
    } catch (err) {
      if (err instanceof ImportRefused) {
        io.err(`import refused: ${err.message}`);
        return 2;
      }
      io.err(`import failed, nothing was kept: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
