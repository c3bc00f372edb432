// Bundles the compiled server (server/dist/main.js, as tsc emitted it) into one file in its place, so a start reads one
// module instead of ~900 (its own ~460 and those of fastify, undici, ajv, zod, kysely, prom-client...): resolving and
// compiling them one by one took most of the ~1.4 s a start cost. docs/decisions.md, "Starting in well under 2 s".
//
// Packages the server only imports on demand (database drivers, Redis, mail, tracing, tokenizers, the WebSocket and
// SOCKS clients...) stay outside: they load from node_modules when first used, as before, and better-sqlite3 is native.
// The rest of server/dist stays as tsc emitted it, for `npm run import` and the benchmarks that import modules.
import { build } from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
export const MAIN = path.join(ROOT, 'server/dist/main.js');

export const ON_DEMAND = [
  'better-sqlite3',
  'pg',
  'mysql2',
  'ioredis',
  'bcryptjs',
  'nodemailer',
  'music-metadata',
  'ws',
  'socks',
  'jose',
  'gpt-tokenizer',
  '@anthropic-ai/tokenizer',
  '@smithy/signature-v4',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-node',
];

export function bundleServer() {
  return build({
    entryPoints: [MAIN],
    outfile: MAIN,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ON_DEMAND.flatMap((name) => [name, `${name}/*`]),
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleServer();
