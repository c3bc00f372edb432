// How `npm start` runs the server (package.json's start script): the environment assignments and node flags in front
// of server/dist/main.js. The benchmarks and the image (Dockerfile) start the server the same way.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENTRY = 'server/dist/main.js';

/** `{ env, flags, entry, text }`, or null when the start script does not run the server in a form read here. */
export function startCommand(script = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts?.start ?? '') {
  const run = script.split('&&').map((part) => part.trim()).find((part) => part.includes(ENTRY)) ?? '';
  const words = run.split(/\s+/).filter(Boolean);
  const env = {};
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [k, ...v] = words.shift().split('=');
    env[k] = v.join('=');
  }
  // `exec` hands the shell's process to node, so the signals npm forwards reach the server itself.
  if (words[0] === 'exec') words.shift();
  const at = words.indexOf(ENTRY);
  if (words[0] !== 'node' || at < 0) return null;
  return { env, flags: words.slice(1, at), entry: ENTRY, text: run.replace(/\bexec\s+/, '') };
}
