import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Options } from '../options/index.js';
import { consoleHeaders } from './console-headers.js';
import { inlineScriptSources } from './console-policy.js';

/** The folder of the build's content-hashed files (Vite's assetsDir): a name never serves two contents. */
const HASHED_DIR = 'assets';

/**
 * A fresh browser fetches some forty hashed files for its first page; counting them against the web limit
 * (GLOBAL_WEB_RATE_LIMIT, 60 per 180 s) left the second visitor behind one address with a blank page. They are
 * immutable and cached, so their routes are left out of the limit, which counts page loads and the unhashed files.
 */
function serveHashedFiles(root: string, secure: (reply: FastifyReply) => void) {
  return async (hashed: FastifyInstance) => {
    hashed.addHook('onRoute', (route) => {
      route.config = Object.assign(route.config ?? {}, { unlimited: true });
    });
    await hashed.register(fastifyStatic, {
      root,
      prefix: `/${HASHED_DIR}/`,
      wildcard: false,
      index: false,
      decorateReply: false,
      setHeaders: (reply) => {
        secure(reply);
        void reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  };
}

export interface ConsoleSite {
  /** Answers a client-side route (any page path) with the console's index.html. */
  sendIndex(reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built console (web/dist): its files with the console's security headers, its hashed files cached for
 * good and left out of the per-address web limit. Null when there is no build.
 */
export async function serveConsole(app: FastifyInstance, webDist: string, options: Options): Promise<ConsoleSite | null> {
  const indexHtml = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexHtml)) return null;
  const secure = consoleHeaders(options, inlineScriptSources(fs.readFileSync(indexHtml, 'utf8')));

  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: false,
    globIgnore: [`${HASHED_DIR}/**`],
    setHeaders: (reply) => secure(reply),
  });
  const hashedRoot = path.join(webDist, HASHED_DIR);
  if (fs.existsSync(hashedRoot)) await app.register(serveHashedFiles(hashedRoot, secure));

  return {
    sendIndex: (reply) => {
      secure(reply);
      // Revalidated on every visit: it names the hashed files of the build now being served.
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(indexHtml));
    },
  };
}
