#!/usr/bin/env node
// Installs the coding agents the agent suites drive (pinned versions, from npm) into a cache folder outside the
// repository, once per version, and prints the folder: `.ci/run` exports it as SWITCHYARD_AGENT_CLIS. They are not
// dependencies of the product, and at ~430 MB (Codex's native binary) they would double every `npm ci`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Package, version, and the binary it puts in node_modules/.bin. */
export const AGENTS = [
  { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
];

const root = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'switchyard', 'agents');
const bins = path.join(root, 'bin');
mkdirSync(bins, { recursive: true });
for (const { pkg, version, bin } of AGENTS) {
  const folder = path.join(root, `${pkg.replace('/', '+')}@${version}`);
  const binary = path.join(folder, 'node_modules', '.bin', bin);
  if (!existsSync(binary)) {
    // Into a fresh folder first: an interrupted install never looks finished.
    const partial = `${folder}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', partial, `${pkg}@${version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    rmSync(folder, { recursive: true, force: true });
    renameSync(partial, folder);
  }
  const link = path.join(bins, bin);
  rmSync(link, { force: true });
  execFileSync('ln', ['-s', binary, link]);
}
process.stdout.write(`${bins}\n`);
