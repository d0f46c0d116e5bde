/**
 * The test station as a Fastify instance: database, market, plugins per area, one error handler,
 * OpenAPI docs and the built app. No globals: tests build as many as they like.
 */
import { readFileSync } from 'node:fs';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  installFieldChecks,
  installRequestLog,
  logSerializers,
  clientErrorHandler,
  registerOpenApi,
  migrateToLatest,
  openDatabase,
  AppError,
  loadTranslator,
  fromFrameworkError,
  installErrorHandler,
  sendFailure,
  addSharedSchemas,
  regionPlugin,
  hardeningPlugin,
  scaleOutPlugin,
  installRouteRegistry,
  lazySchemas,
  appPathname,
  isAppRoute,
  registerStatic,
  type Db,
  type StaticSite,
  type Station,
} from './platform';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyCompress from '@fastify/compress';
import type { Config, ReplaySettings } from './config';
import {
  loadReplayHistory,
  readReplayPoint,
  ReplayClock,
  startReplay,
  systemClock,
  marketPlugin,
  indexMarketPlugin,
  futuresMarketPlugin,
  streamPlugin,
  localizedNamesPlugin,
  type Clock,
} from './market';
import { createAuth, kycPlugin, bankPlugin, userPlugin } from './identity';
import { cashPlugin, messageFeedPlugin, messageStreamPlugin, messagesPlugin } from './ledger';
import { contentPlugin, homeBannerPreload, sitePlugin, siteSettingsPlugin } from './content';
import './platform';
import { exchangeRatePlugin, walletPlugin } from './wallet';
import { alertsPlugin, tradePlugin, watchlistPlugin, ordersPlugin } from './trading';
import { newSharesPlugin, stationMarket, blockTradesVipPlugin, fundsPlugin, fundLocalName } from './products';
import { createStationJobs, STEP_EVERY_MS } from './jobs';
import { competitionPlugin, competitionReadsPlugin } from './competitions';

/**
 * MARKET_SOURCE=replay: the stored replay clock (started or joined), the imported history, and how this
 * process follows the operator's pauses and resumes (the jobs' 'replay-clock' step, each second).
 */
async function openReplay(db: Db, settings: ReplaySettings, wall: Clock) {
  const point = await startReplay(db, settings, wall.now());
  const clock = new ReplayClock(wall, point);
  const history = await loadReplayHistory(db, settings.startAt);
  const follow = async () => {
    const latest = await readReplayPoint(db);
    if (latest) clock.update(latest);
  };
  return { clock, history, follow };
}

/** The app's start page (spec §3), whose page preloads the first banner's picture. */
const HOME_PAGE_PATH = '/home';

/** An app route's page (static.ts); the start page's answer also names its first banner's picture to preload. */
async function sendAppPage(
  station: Station,
  site: StaticSite,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const pathname = appPathname(request);
  if (pathname === HOME_PAGE_PATH) {
    const preload = await homeBannerPreload(station);
    if (preload) reply.header('Link', preload);
  }
  return site.sendIndex(reply, pathname);
}

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

/** The logger: tokens and cookies redacted, URLs with phones masked; requests logged by installRequestLog. */
function loggingOptions(config: Config, opts: BuildOptions) {
  return {
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      serializers: logSerializers,
    },
    // A summary at info, a line each at debug (installRequestLog), not Fastify's two lines per request.
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/** Each area's routes, registered in the station's fixed order. */
async function registerAreas(app: FastifyInstance): Promise<void> {
  await app.register(regionPlugin);
  await app.register(localizedNamesPlugin, { otherNames: [fundLocalName] });
  await app.register(sitePlugin, { version: packageVersion() });
  await app.register(userPlugin);
  await app.register(marketPlugin);
  await app.register(exchangeRatePlugin);
  await app.register(indexMarketPlugin);
  await app.register(futuresMarketPlugin);
  await app.register(streamPlugin);
  await app.register(tradePlugin);
  await app.register(watchlistPlugin);
  await app.register(alertsPlugin);
  await app.register(ordersPlugin);
  await app.register(messagesPlugin);
  await app.register(messageFeedPlugin);
  await app.register(messageStreamPlugin);
  await app.register(cashPlugin);
  await app.register(walletPlugin);
  await app.register(newSharesPlugin);
  await app.register(fundsPlugin);
  await app.register(kycPlugin);
  await app.register(bankPlugin);
  await app.register(siteSettingsPlugin);
  await app.register(contentPlugin, { version: packageVersion() });
  await app.register(blockTradesVipPlugin);
  await app.register(competitionReadsPlugin);
  await app.register(competitionPlugin);
}

export async function buildServer(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const translator = await loadTranslator();
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  let replay: Awaited<ReturnType<typeof openReplay>> | null = null;
  try {
    await migrateToLatest(database);
    if (config.replay) replay = await openReplay(database.db, config.replay, opts.clock ?? systemClock);
  } catch (error) {
    await database.close();
    throw error;
  }
  // A replay's clock runs over the wall clock (the system's, or a test's); else the station's clock is it.
  const clock: Clock = replay?.clock ?? opts.clock ?? systemClock;
  // The catalogue plus the new-share calendar's listings, as the operator command line builds it.
  const market = stationMarket(config, clock, replay?.history);

  const schemas = lazySchemas();
  const app = Fastify({
    ...loggingOptions(config, opts),
    schemaController: schemas.schemaController,
    clientErrorHandler: clientErrorHandler(translator),
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
    app.decorate('compileSchemas', () => schemas.compileAll());
    app.decorate('auth', createAuth(station));
    app.decorateRequest('session', null);
    app.addHook('onClose', async () => database.close());
    app.decorate('replay', replay?.clock ?? null);

    installErrorHandler(app, translator);
    installRequestLog(app, config.requestLogSummarySeconds * 1000);
    installFieldChecks(app);
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
      onLeaderChange: (listener) => app.leader.onChange(listener),
      tickBus: app.tickBus,
      logError: (error, job) => app.log.error({ err: error, job }, `${job} step failed`),
      ...(replay ? { followReplay: replay.follow } : {}),
    });
    app.decorate('engine', jobs.engine);
    app.decorate('kycReviewer', { run: jobs.reviewKyc });
    app.decorate('competitionRanking', { run: jobs.rankCompetitions });
    app.decorate('jobs', jobs.scheduler);
    app.addHook('onClose', () => jobs.scheduler.stop());
    await app.register(hardeningPlugin);
    // Only the session's cookie is read and written, by identity's auth (createAuth): no hook on every call.
    await app.register(fastifyCookie, { hook: false });
    await app.register(fastifyFormbody, { bodyLimit: config.bodyLimit });
    await app.register(fastifyCompress, { global: true, threshold: 1024 });
    await registerOpenApi(app, packageVersion());

    await registerAreas(app);

    const site = await registerStatic(app, config.staticDir);
    app.setNotFoundHandler(async (request, reply) => {
      if (isAppRoute(request) && site.hasIndex()) return sendAppPage(station, site, request, reply);
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
