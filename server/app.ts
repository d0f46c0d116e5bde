/**
 * The test station as a Fastify instance: database, market, plugins per area, one error handler,
 * OpenAPI docs and the built app. No globals: tests build as many as they like.
 */
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Config } from './config';
import { migrateToLatest, openDatabase } from './platform/db/database';
import type { Station } from './platform/station';
import { AppError } from './platform/errors';
import { loadTranslator } from './platform/i18n';
import { systemClock, type Clock } from './market/clock';
import { createAuth } from './platform/http/auth';
import { cashPlugin } from './ledger/routes/fund-flow';
import { contentPlugin } from './content/routes/content';
import { fromFrameworkError, installErrorHandler, sendFailure } from './platform/http/envelope';
import './platform/http/fastify-types';
import { marketPlugin } from './market/routes/stocks';
import { exchangeRatePlugin } from './market/routes/exchange-rate';
import { indexMarketPlugin } from './market/routes/indexes';
import { futuresMarketPlugin } from './market/routes/futures';
import { streamPlugin } from './market/routes/stream';
import { addSharedSchemas } from './platform/http/schemas';
import { sitePlugin } from './content/routes/site';
import { kycPlugin } from './identity/routes/kyc';
import { bankPlugin } from './identity/routes/bank-card';
import { regionPlugin } from './platform/http/region';
import { hardeningPlugin } from './platform/http/hardening';
import { scaleOutPlugin } from './platform/http/scale-out';
import { installRouteRegistry } from './platform/http/route-registry';
import { siteSettingsPlugin } from './content/routes/site-settings';
import { isAppRoute, registerStatic } from './platform/http/static';
import { tradePlugin } from './trading/routes/trade';
import { watchlistPlugin } from './trading/routes/watchlist';
import { ordersPlugin } from './trading/routes/limit-orders';
import { messagesPlugin } from './ledger/routes/messages';
import { userPlugin } from './identity/routes/user';
import { walletPlugin } from './wallet/routes/wallet';
import { newSharesPlugin } from './products/routes/new-shares';
import { stationMarket } from './products/new-share-calendar';
import { blockTradesVipPlugin } from './products/routes/block-trades-vip';
import { fundsPlugin } from './products/routes/funds';
import { createStationJobs, STEP_EVERY_MS } from './jobs/station-jobs';

export interface BuildOptions {
  /** The station's clock; the system clock by default. Tests pin one. */
  clock?: Clock;
  /** Where log lines go (stdout by default); tests capture them. */
  logStream?: { write(line: string): void };
  /**
   * How often the trading engine steps once the jobs are started (ms; 0: never). Default: every second on
   * the system clock, never on a pinned one (a test moves the clock and steps `app.engine` itself).
   */
  engineIntervalMs?: number;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

export async function buildServer(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const clock = opts.clock ?? systemClock;
  const translator = await loadTranslator();
  // The catalogue plus the new-share calendar's listings (issue 13), as the operator command line builds it.
  const market = stationMarket(config, clock);
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }

  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    bodyLimit: config.bodyLimit,
    // Behind a load balancer (TRUST_PROXY=true) request.ip is the caller's, from X-Forwarded-For.
    trustProxy: config.trustProxy,
    // Every bad field is reported; strings are bounded by maxLength, so this costs little.
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true },
    },
    frameworkErrors: (error, request, reply) => {
      const mapped =
        fromFrameworkError(request, error) ?? new AppError('VALIDATION', { msgKey: 'BAD_REQUEST_BODY' });
      void sendFailure(reply, translator, mapped);
    },
  });
  installRouteRegistry(app);

  try {
    const station: Station = {
      db: database.db,
      dialect: database.dialect,
      config,
      clock,
      market,
      log: { info: (obj, msg) => app.log.info(obj, msg) },
    };
    app.decorate('config', config);
    app.decorate('db', database.db);
    app.decorate('dialect', database.dialect);
    app.decorate('clock', clock);
    app.decorate('market', market);
    app.decorate('i18n', translator);
    app.decorate('station', station);
    app.decorate('auth', createAuth(station));
    app.decorateRequest('session', null);
    app.addHook('onClose', async () => database.close());

    installErrorHandler(app, translator);
    // The two checks below are plain callbacks, not async functions: they run on every call, and an async
    // hook costs Fastify a promise and a microtask turn each time (issue 6 bench).
    app.addHook('preValidation', (request, _reply, done) => {
      // A POST without a body (e.g. logout) is an empty form, so its fields are checked one by one.
      if (request.method === 'POST' && (request.body === undefined || request.body === null))
        request.body = {};
      // Every field of this API is a single string or number. Refusing other JSON values here keeps the
      // schema's type coercion (needed for form strings) from reading `true` as 1 or `null` as 0.
      const body = request.body;
      // Raw uploads (KYC photos) are bytes, not fields.
      if (typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) {
        let fields: Record<string, 'invalid'> | null = null;
        for (const [name, value] of Object.entries(body)) {
          if (typeof value !== 'string' && typeof value !== 'number') (fields ??= {})[name] = 'invalid';
        }
        if (fields) {
          done(new AppError('VALIDATION', { fields }));
          return;
        }
      }
      done();
    });
    // Ajv's type coercion turns "9…9" (400 digits) or "1e400" into Infinity, which then passes integer
    // and maximum checks (found by tests/server/fuzz.test.ts): refuse any non-finite number.
    app.addHook('preHandler', (request, _reply, done) => {
      let fields: Record<string, 'invalid'> | null = null;
      for (const source of [request.query, request.body]) {
        if (typeof source !== 'object' || source === null || Buffer.isBuffer(source)) continue;
        for (const [name, value] of Object.entries(source)) {
          if (typeof value === 'number' && !Number.isFinite(value)) (fields ??= {})[name] = 'invalid';
        }
      }
      if (fields) done(new AppError('VALIDATION', { fields }));
      else done();
    });
    addSharedSchemas(app);

    // Leader election, the tick fan-out and shared rate limits (scale-out mode): before the plugins using them.
    await app.register(scaleOutPlugin);
    // The periodic steps (server/jobs), built here but started by whoever starts the station (main.ts,
    // the test harnesses): `app.jobs.start()`. Closing the station stops them and awaits their last runs;
    // this hook runs before the leader lock is given up and the database is closed (registered after them).
    const jobs = await createStationJobs(station, {
      engineEveryMs: opts.engineIntervalMs ?? (opts.clock ? 0 : STEP_EVERY_MS),
      kycReviewEveryMs: STEP_EVERY_MS,
      isLeader: () => app.leader.isLeader(),
      logError: (error, job) => app.log.error({ err: error, job }, `${job} step failed`),
    });
    app.decorate('engine', jobs.engine);
    app.decorate('kycReviewer', { run: jobs.reviewKyc });
    app.decorate('jobs', jobs.scheduler);
    app.addHook('onClose', () => jobs.scheduler.stop());
    await app.register(hardeningPlugin);
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: config.bodyLimit });
    await app.register(fastifyCompress, { global: true, threshold: 1024 });
    await app.register(fastifySwagger, {
      openapi: {
        info: {
          title: 'PaperDesk test station',
          description:
            'A simulated brokerage and exchange: paper money only, no real trading. See API.md for conventions.',
          version: packageVersion(),
        },
        components: {
          securitySchemes: {
            bearerAuth: { type: 'http', scheme: 'bearer' },
            cookieAuth: { type: 'apiKey', in: 'cookie', name: 'USER_TOKEN' },
          },
        },
      },
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) =>
          typeof json.$id === 'string' ? json.$id : `def-${i}`,
      },
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

    await app.register(regionPlugin);
    await app.register(sitePlugin, { version: packageVersion() });
    await app.register(userPlugin);
    await app.register(marketPlugin);
    await app.register(exchangeRatePlugin);
    await app.register(indexMarketPlugin);
    await app.register(futuresMarketPlugin);
    await app.register(streamPlugin);
    await app.register(tradePlugin);
    await app.register(watchlistPlugin);
    await app.register(ordersPlugin);
    await app.register(messagesPlugin);
    await app.register(cashPlugin);
    await app.register(walletPlugin);
    await app.register(newSharesPlugin);
    await app.register(fundsPlugin);
    await app.register(kycPlugin);
    await app.register(bankPlugin);
    await app.register(siteSettingsPlugin);
    await app.register(contentPlugin, { version: packageVersion() });
    await app.register(blockTradesVipPlugin);

    const site = await registerStatic(app, config.staticDir);
    app.setNotFoundHandler((request, reply) => {
      if (isAppRoute(request) && site.hasIndex()) return site.sendIndex(reply);
      return sendFailure(reply, translator, new AppError('NOT_FOUND'));
    });

    return app;
  } catch (error) {
    // Whatever was opened is closed again: a failed start leaves no database handle behind.
    await app.close().catch(() => undefined);
    await database.close();
    throw error;
  }
}
