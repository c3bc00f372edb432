import type { Config } from '../config.js';
import { connect } from '../db/connect.js';
import { terminalProgress } from './progress.js';
import { ImportRefused, ImportStopped, runImport } from './runner.js';
import { describeSource, openSource, parseSource } from './source.js';

export const USAGE = `usage: npm run import -- <source> [--logs <log source>]

Imports a new-api or one-api database into the database Switchyard is configured for (SQL_DSN, or SQLITE_PATH).
<source> is an SQLite file (path or sqlite:/path), postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db
or user:pass@tcp(host:3306)/db. --logs names the database holding the logs when the old gateway kept them apart
(LOG_SQL_DSN). The target must be empty (a first start's untouched root account is allowed), and no server may be
running on it. Ctrl-C stops the import and removes what it wrote.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Exit code of an import stopped by Ctrl-C (128 + SIGINT, as a shell reports it). */
export const STOPPED_EXIT_CODE = 130;

/** Runs the import the command line asked for; returns the exit code (0 done, 1 failed, 2 refused or misused, 130 stopped). */
export async function runCli(args: string[], config: Config, io: CliIo, signal?: AbortSignal): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.out(USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (!parsed) {
    io.err(USAGE);
    return 2;
  }
  const spec = parseSource(parsed.source);
  const label = describeSource(spec);
  const source = await openSource(spec);
  const logSource = parsed.logs === undefined ? undefined : await openSource(parseSource(parsed.logs));
  try {
    const target = await connect(config.sqlDsn, config.sqlitePath);
    try {
      const result = await runImport(source, label, target, { progress: terminalProgress(), signal, logSource });
      io.out(result.summary);
      return 0;
    } catch (err) {
      if (err instanceof ImportRefused) {
        io.err(`import refused: ${err.message}`);
        return 2;
      }
      if (err instanceof ImportStopped) {
        io.err('import stopped: what it wrote was removed');
        return STOPPED_EXIT_CODE;
      }
      io.err(`import failed, nothing was kept: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
    await logSource?.close();
  }
}

/** `<source>` and an optional `--logs <source>` (or `--logs=<source>`); null for anything else. */
function parseArgs(args: string[]): { source: string; logs?: string } | null {
  const rest = [...args];
  let logs: string | undefined;
  const at = rest.findIndex((a) => a === '--logs' || a.startsWith('--logs='));
  if (at >= 0) {
    const [flag] = rest.splice(at, 1);
    logs = flag === '--logs' ? rest.splice(at, 1)[0] : flag.slice('--logs='.length);
    if (!logs) return null;
  }
  if (rest.length !== 1 || rest[0].startsWith('-')) return null;
  return { source: rest[0], logs };
}
