/**
 * Serves the built app (STATIC_DIR): hashed files under /assets/ cached for a year, everything else
 * (index.html, sw.js, manifest.webmanifest, icons) revalidated on every use; app routes get their prerendered
 * page where the build wrote one (`shell/<path>.html`, vite.config.ts prerenderShells), else index.html.
 * The build writes a brotli (.br) and a gzip (.gz) copy of each text file (vite.config.ts, precompress);
 * a request that accepts one of them gets that copy as it is, with its Content-Encoding, and every
 * answer that could have been encoded says `Vary: Accept-Encoding` so caches keep the variants apart.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';

/** The precompressed copies the build writes, by the file name's last extension. */
const ENCODED_COPY = /\.(br|gz)$/;

/** Paths that belong to the API or the docs: never files, never the app's index.html. */
export function isApiPath(url: string): boolean {
  // `/user` itself is the app's personal-centre route; only `/user/…` belongs to the API.
  return /^\/(api|user|code)\//.test(url) || /^\/docs(\/|$|\?)/.test(url);
}

/** The request's path, without its query. */
export function appPathname(request: FastifyRequest): string {
  return (request.url.split('?')[0] ?? '/').split('#')[0] ?? '/';
}

/** A client-side route of the app: a GET for an extension-less path outside the API and /assets/. */
export function isAppRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = appPathname(request);
  if (isApiPath(pathname) || pathname.startsWith('/assets/')) return false;
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
}

export interface StaticSite {
  /** True when there is an index.html to answer app routes with (checked each time: the app may be built later). */
  hasIndex(): boolean;
  /** Sends an app route's page: its prerendered first frame if the build wrote one, else index.html. */
  sendIndex(reply: FastifyReply, pathname: string): FastifyReply;
}

/** A path the build may have prerendered: one segment of letters, digits and dashes (so never a file outside shell/). */
const PRERENDERABLE = /^\/[A-Za-z0-9-]+$/;

export async function registerStatic(app: FastifyInstance, staticDir: string): Promise<StaticSite> {
  const indexFile = path.join(staticDir, 'index.html');
  if (!existsSync(staticDir)) {
    app.log.warn(
      { staticDir },
      `STATIC_DIR ${staticDir} does not exist: serving the API only (build the app first)`,
    );
    return { hasIndex: () => false, sendIndex: (reply) => reply };
  }
  if (!existsSync(indexFile))
    app.log.warn({ staticDir }, `no index.html in ${staticDir}: app routes will answer 404`);
  await app.register(fastifyStatic, {
    root: staticDir,
    prefix: '/',
    wildcard: true,
    cacheControl: false,
    // Brotli first, then gzip, by the request's Accept-Encoding; the plain file when neither copy exists.
    preCompressed: true,
    allowedPath: (pathName) => !isApiPath(pathName),
    setHeaders(res, filePath) {
      // filePath is the copy actually sent (index.html.br for index.html): its rules are the original's.
      const relative = path.relative(staticDir, filePath).split(path.sep).join('/').replace(ENCODED_COPY, '');
      res.setHeader('Cache-Control', relative.startsWith('assets/') ? IMMUTABLE : NO_CACHE);
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  return {
    hasIndex: () => existsSync(indexFile),
    sendIndex: (reply, pathname) => {
      const shell = PRERENDERABLE.test(pathname) ? `shell${pathname}.html` : null;
      const file = shell && existsSync(path.join(staticDir, shell)) ? shell : 'index.html';
      return reply.header('Cache-Control', NO_CACHE).sendFile(file);
    },
  };
}
