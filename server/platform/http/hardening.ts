/**
 * Security headers and CORS for the whole station (root level, not encapsulated).
 * The CSP fits the built PWA: its own module scripts, a module worker and the service worker from the
 * same origin, inline styles (index.html's boot screen, the prerendered pages' stylesheet, React and echarts
 * style attributes), images from data:/blob: (echarts exports, photo previews). No foreign scripts, and no
 * inline script but the head script the build names by its hash (vite.config.ts FIRST_FRAME_SCRIPT). The station speaks
 * plain http on 127.0.0.1 in embedded mode, so requests are not upgraded to https.
 * CORS: only origins in CORS_ORIGINS (none by default: the app is served from the station's own origin, and
 * the CORS plugin is not registered at all).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyCors from '@fastify/cors';
import type { FastifyHelmetOptions } from '@fastify/helmet';

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/** Where CORS applies: the API, and the config files another host's app reads the base URL from. */
const API_PATH = /^\/(api|user|code|config)\//;

/** The calls about one user: `/user/*` and `/api/user/*` (login, registration, logout, exchanges). */
const USER_PATH = /^\/(api\/)?user\//;

/**
 * The helmet options for a station whose page and service worker may also fetch from `connectOrigins`: the
 * remote config files the build names and the API on another host (spec §7 discovery).
 */
function helmetOptions(
  connectOrigins: readonly string[],
  scriptHashes: readonly string[],
): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...CONTENT_SECURITY_POLICY,
        'script-src': [...CONTENT_SECURITY_POLICY['script-src'], ...scriptHashes],
        'connect-src': [...CONTENT_SECURITY_POLICY['connect-src'], ...connectOrigins],
      },
    },
    // The station may run on plain http (embedded mode): HSTS only makes sense behind https.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  };
}

/** The file the app's build writes beside index.html (vite.config.ts `buildFacts`). */
const BUILD_FACTS_FILE = 'paperdesk-build.json';

/**
 * The origins the served app may connect to besides its own: those of the config sources its build names on
 * other hosts (read from the build), and CORS_ORIGINS (the hosts of a deployment that call each other's
 * API). A missing or unreadable build file names none: the station may serve the API only.
 */
export function connectOrigins(staticDir: string, corsOrigins: readonly string[]): string[] {
  const origins = new Set<string>(corsOrigins);
  const sources = readBuildFacts(staticDir).configSources;
  if (Array.isArray(sources)) {
    for (const source of sources) {
      if (typeof source === 'string' && URL.canParse(source)) origins.add(new URL(source).origin);
    }
  }
  return [...origins];
}

/** A CSP hash source, and nothing else (the build file must not widen the policy in any other way). */
const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;

/** The inline scripts the build wrote into its pages, as CSP hash sources; none without a build. */
export function inlineScriptHashes(staticDir: string): string[] {
  const hashes = readBuildFacts(staticDir).scriptHashes;
  return Array.isArray(hashes)
    ? hashes.filter((hash): hash is string => typeof hash === 'string' && HASH_SOURCE.test(hash))
    : [];
}

/** The build's facts file, or nothing when there is no build beside the station (or an unreadable one). */
function readBuildFacts(staticDir: string): { configSources?: unknown; scriptHashes?: unknown } {
  try {
    const facts: unknown = JSON.parse(readFileSync(path.join(staticDir, BUILD_FACTS_FILE), 'utf8'));
    return facts && typeof facts === 'object' ? facts : {};
  } catch {
    return {};
  }
}

type HelmetMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What helmet does to a response: set a header to a value, or remove one. */
type HeaderStep = readonly [name: string, value: string | null];

/**
 * The headers helmet's middleware for the options sets, worked out once. @fastify/helmet builds the
 * middleware again on every request (parsing the CSP directives each time: a measurable share of a market
 * call), and even built once it walks a dozen middlewares per request (about 2% of an order, measured with npm run bench).
 * The options have no per-request part (no directive is a function, e.g. a nonce), so every response gets
 * the same steps: they are recorded from one run of the middleware and replayed on the raw response in the
 * same order, which sends the same bytes. helmet is loaded from @fastify/helmet's own dependency, the
 * version it would use.
 */
function helmetHeaderSteps(options: FastifyHelmetOptions): readonly HeaderStep[] {
  const fromPlugin = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'));
  const helmet = fromPlugin('helmet') as (options: FastifyHelmetOptions) => HelmetMiddleware;
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => void steps.push([name, String(value)]),
    removeHeader: (name: string) => void steps.push([name, null]),
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  // A middleware that answered later, or looked at the request, would make the steps per-request.
  if (!finished) throw new Error('helmet did not set its headers at once');
  return steps;
}

async function hardeningPluginFn(app: FastifyInstance): Promise<void> {
  const steps = helmetHeaderSteps(
    helmetOptions(
      connectOrigins(app.config.staticDir, app.config.identity.corsOrigins),
      inlineScriptHashes(app.config.staticDir),
    ),
  );
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of steps) {
      if (value === null) raw.removeHeader(name);
      else raw.setHeader(name, value);
    }
    // A user's own data (balances, positions, KYC) and a session's token (login, registration) are never
    // kept by a browser or a proxy cache. Calls elsewhere that read the session mark themselves the same way
    // (identity's requireUser).
    if (USER_PATH.test(request.url)) raw.setHeader('cache-control', 'no-store');
    done();
  });
  const allowed = new Set(app.config.identity.corsOrigins);
  // No allowed origin (the default: the app is served from the station's own origin): CORS would refuse
  // every origin, so no answer varies by Origin, and its two hooks would only cost every call its time.
  if (allowed.size === 0) return;
  await app.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', 'authorization', 'accept-language'],
    maxAge: 600,
  });
  // CORS is for the API only: the built app's files keep their own Vary (Accept-Encoding) and get no
  // CORS headers, whatever the Origin.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (API_PATH.test(request.url)) {
      done(null, payload);
      return;
    }
    for (const name of Object.keys(reply.getHeaders())) {
      if (name.startsWith('access-control-')) reply.removeHeader(name);
    }
    if (String(reply.getHeader('vary') ?? '').toLowerCase() === 'origin') {
      // removeHeader clears the raw response's too, where @fastify/static put its own Vary: keep that.
      const own = reply.raw.getHeader('vary');
      reply.removeHeader('vary');
      if (own !== undefined) reply.header('vary', own);
    }
    done(null, payload);
  });
}
export const hardeningPlugin = fp(hardeningPluginFn, { name: 'hardening' });
