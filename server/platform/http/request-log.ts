/**
 * What the station logs about the requests it serves, without costing the hot path: writing two JSON lines
 * per request synchronously to stdout (Fastify's default request logging) took more than half of a trivial
 * call's time (npm run bench). So:
 * - at `debug` (and `trace`), one line per request, as before;
 * - at `info`, one summary line per SUMMARY_EVERY_MS of real time, written by the first response after it:
 *   how many requests, by status class, their mean and slowest time. No timer keeps it; closing the station
 *   writes the last period's.
 * Errors stay complete and synchronous: the error handler logs every 5xx with its request id (envelope.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Runs of 11 or more digits in a URL, and an 11-digit mainland mobile number: a run holding one anywhere (a
 * query such as checkPhone.do?phone=…, also after a country code, 86139…, or among other digits) is logged
 * with all but its first 3 and last 4 digits masked.
 */
const DIGIT_RUN = /[0-9]{11,}/g;
const MOBILE_NUMBER = /1[3-9][0-9]{9}/;

/** A URL with its phone numbers masked (138****1234, 861******1234). */
export function maskPhones(url: string): string {
  return url.replace(DIGIT_RUN, (run) =>
    MOBILE_NUMBER.test(run) ? `${run.slice(0, 3)}${'*'.repeat(run.length - 7)}${run.slice(-4)}` : run,
  );
}

/**
 * How requests appear in log lines: method, URL with phone numbers masked (138****1234), the route, the
 * caller's address and request id; never headers (tokens and cookies live there) or bodies.
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: maskPhones(request.url),
      route: request.routeOptions?.url,
      remoteAddress: request.ip,
    };
  },
};

const SUMMARY_EVERY_MS = 60_000;
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** Whether the app's logger writes lines of `level` (pino's numeric order; `silent` writes none). */
function enabled(app: FastifyInstance, level: 'debug' | 'info'): boolean {
  const current = LEVELS[app.log.level];
  return current !== undefined && current <= LEVELS[level]!;
}

interface Window {
  start: number;
  requests: number;
  byStatus: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  totalMs: number;
  maxMs: number;
}

const emptyWindow = (start: number): Window => ({
  start,
  requests: 0,
  byStatus: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 },
  totalMs: 0,
  maxMs: 0,
});

const statusClass = (code: number): keyof Window['byStatus'] =>
  code >= 500 ? '5xx' : code >= 400 ? '4xx' : code >= 300 ? '3xx' : '2xx';

/** Installs the request log; Fastify's own request lines must be off (LogController, disableRequestLogging). */
export function installRequestLog(app: FastifyInstance, summaryEveryMs = SUMMARY_EVERY_MS): void {
  if (enabled(app, 'debug')) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
      done();
    });
    return;
  }
  if (!enabled(app, 'info')) return;
  // Real time on purpose: this is about the process, not the simulated market.
  let window = emptyWindow(Date.now());
  const summarize = (now: number) => {
    app.log.info(
      {
        seconds: Math.round((now - window.start) / 1000),
        requests: window.requests,
        status: window.byStatus,
        meanMs: Number((window.totalMs / window.requests).toFixed(2)),
        maxMs: Number(window.maxMs.toFixed(2)),
      },
      'requests served',
    );
    window = emptyWindow(now);
  };
  app.addHook('onResponse', (_request, reply, done) => {
    const ms = reply.elapsedTime;
    window.requests++;
    window.byStatus[statusClass(reply.statusCode)]++;
    window.totalMs += ms;
    if (ms > window.maxMs) window.maxMs = ms;
    const now = Date.now();
    if (now - window.start >= summaryEveryMs) summarize(now);
    done();
  });
  // No timer writes a quiet period's line, so the requests since the last one are summed up on the way out.
  app.addHook('onClose', (_instance, done) => {
    if (window.requests > 0) summarize(Date.now());
    done();
  });
}
