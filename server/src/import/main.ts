import { loadConfig } from '../config.js';
import { runCli } from './cli.js';

/** `npm run import -- <source>`: see cli.ts. Ctrl-C stops the import and removes what it wrote. */
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
runCli(process.argv.slice(2), loadConfig(), { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) }, stop.signal).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
