/*
 * Progress on stderr while a table imports (one redrawn line on a terminal, a line per table otherwise), and the
 * summary on stdout at the end.
 */

export interface TableReport {
  table: string;
  read: number;
  written: number;
  seconds: number;
  /** Rows left out, by reason. */
  skipped: Map<string, number>;
  /** Rows changed on the way, by reason. */
  notes: Map<string, number>;
  /** Source columns with nowhere to go. */
  notCarried: string[];
  extra: string[];
}

export interface ProgressSink {
  start(table: string, total: number): void;
  advance(done: number): void;
  end(report: TableReport): void;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const rate = (rows: number, seconds: number) => (seconds > 0 ? `${fmt(Math.round(rows / seconds))} rows/s` : '');

export function terminalProgress(out: NodeJS.WriteStream = process.stderr): ProgressSink {
  let table = '';
  let total = 0;
  let started = 0;
  let lastDraw = 0;
  return {
    start(name, rows) {
      table = name;
      total = rows;
      started = performance.now();
      lastDraw = 0;
    },
    advance(done) {
      if (!out.isTTY) return;
      const now = performance.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      const width = 30;
      const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : width;
      const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
      out.write(`\r${table.padEnd(12)} [${bar}] ${fmt(done)}/${fmt(total)}  ${rate(done, (now - started) / 1000)}   `);
    },
    end(report) {
      const line = `${report.table.padEnd(12)} ${fmt(report.written)} rows in ${report.seconds.toFixed(1)} s  ${rate(report.read, report.seconds)}`;
      out.write(out.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
    },
  };
}

export const silentProgress: ProgressSink = { start() {}, advance() {}, end() {} };

export function formatSummary(source: string, detected: string, reports: TableReport[], notImported: string[]): string {
  const lines = [`Imported from ${source}`, `Detected: ${detected}`, ''];
  for (const r of reports) {
    lines.push(`${r.table}: ${fmt(r.written)} of ${fmt(r.read)} rows`);
    for (const [why, n] of r.skipped) lines.push(`  skipped ${fmt(n)}: ${why}`);
    for (const [why, n] of r.notes) lines.push(`  changed ${fmt(n)}: ${why}`);
    if (r.notCarried.length > 0) lines.push(`  columns not carried: ${r.notCarried.join(', ')}`);
    for (const e of r.extra) lines.push(`  ${e}`);
  }
  if (notImported.length > 0) {
    lines.push('', 'Not imported:');
    for (const n of notImported) lines.push(`  ${n}`);
  }
  return lines.join('\n');
}
