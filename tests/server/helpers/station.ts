/**
 * Starts a real test station (buildServer on 127.0.0.1, port 0) on a fresh database: SQLite in a temp
 * DATA_DIR, or a freshly created PostgreSQL database (dropped on close). Plus a small HTTP client.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import { FixedClock, type Clock } from '../../../server/market/clock';
import { checkLedger, describeLedgerCheck } from '../../../server/ledger/ledger';
import type { Envelope, FailEnvelope } from '../../../src/shared/api/envelope';
import type { AuthResult, User } from '../../../src/shared/api/types';

export type DbTarget = 'sqlite' | 'postgres';

const PG_ADMIN_URL = process.env.PAPERDESK_TEST_PG_URL?.trim() || undefined;

/** SQLite always; PostgreSQL too when PAPERDESK_TEST_PG_URL names an admin connection. */
export const dbTargets: DbTarget[] = PG_ADMIN_URL ? ['sqlite', 'postgres'] : ['sqlite'];

if (!PG_ADMIN_URL) warnPostgresSkippedOnce();

/**
 * Each test file loads this module afresh, so "once" needs a marker shared by the run's workers: a file
 * named after the vitest main process (the workers' parent), created atomically. Markers of finished
 * runs are removed.
 */
function warnPostgresSkippedOnce(): void {
  const prefix = 'paperdesk-pg-skip-warned-';
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(prefix))) {
    const pid = Number(name.slice(prefix.length));
    if (pid === process.ppid || !Number.isInteger(pid)) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(path.join(tmpdir(), name), { force: true });
    }
  }
  try {
    closeSync(openSync(path.join(tmpdir(), `${prefix}${process.ppid}`), 'wx'));
  } catch {
    return; // another file of this run has warned already
  }
  console.warn(
    'PostgreSQL server suite skipped: PAPERDESK_TEST_PG_URL is not set ' +
      '(e.g. postgres://postgres@127.0.0.1:5432/test); only SQLite was tested.',
  );
}

/** Wednesday 2025-03-12 02:00 UTC (10:00 in Shanghai and Hong Kong, 22:00 the day before in New York). */
export const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);

export interface StationOptions<C extends Clock> {
  db: DbTarget;
  env?: Record<string, string>;
  clock?: C;
  /** Capture log lines (at LOG_LEVEL, default info when capturing) into `logs`. */
  captureLogs?: boolean;
}

export interface TestStation<C extends Clock> {
  /** Captured log lines (JSON), when asked for. */
  logs: string[];
  url: string;
  config: Config;
  clock: C;
  app: FastifyInstance;
  /** Throws when some account's balance differs from the sum of its ledger entries. */
  assertLedger(): Promise<void>;
  /** Rows in the tables money calls write to: to show that a refused call wrote nothing. */
  counts(): Promise<Record<'users' | 'positions' | 'ledger' | 'idempotency' | 'sessions', number>>;
  close(): Promise<void>;
}

/** A fresh, empty PostgreSQL database, and how to drop it. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pd_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function startStation<C extends Clock = FixedClock>(
  opts: StationOptions<C>,
): Promise<TestStation<C>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-station-'));
  let drop: (() => Promise<void>) | null = null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-app-build'),
    CLOCK_MODE: 'always-open',
    ORDERS_NEED_KYC: 'false',
    LOG_LEVEL: opts.captureLogs ? 'info' : 'silent',
    ...opts.env,
  };
  if (opts.db === 'postgres') {
    if (!PG_ADMIN_URL) throw new Error('startStation: PAPERDESK_TEST_PG_URL is not set');
    const created = await createPgDatabase();
    env.DATABASE_URL = created.url;
    drop = created.drop;
  }
  const config = loadConfig(env);
  const clock = (opts.clock ?? new FixedClock(T0)) as C;
  const logs: string[] = [];
  let app: FastifyInstance | null = null;
  try {
    app = await buildServer(config, {
      clock,
      ...(opts.captureLogs ? { logStream: { write: (line: string) => void logs.push(line) } } : {}),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    // As main.ts does: the periodic steps run (the engine's only when the clock is not pinned).
    app.jobs.start();
  } catch (error) {
    await app?.close();
    if (drop) await drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('station did not listen on a port');
  const count = async (table: 'users' | 'positions' | 'ledger_entries' | 'idempotency_keys' | 'sessions') => {
    const row = await app.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    logs,
    url: `http://127.0.0.1:${address.port}`,
    config,
    clock,
    app,
    async assertLedger() {
      const result = await checkLedger(app.db);
      if (result.mismatches.length > 0 || result.unbalanced.length > 0) {
        throw new Error(`ledger check failed:\n${describeLedgerCheck(result).join('\n')}`);
      }
    },
    async counts() {
      return {
        users: await count('users'),
        positions: await count('positions'),
        ledger: await count('ledger_entries'),
        idempotency: await count('idempotency_keys'),
        sessions: await count('sessions'),
      };
    },
    async close() {
      await app.close();
      if (drop) await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T> {
  http: number;
  body: Envelope<T>;
  headers: Headers;
}

export interface ApiClient {
  readonly baseUrl: string;
  withToken(token: string | null): ApiClient;
  withLang(lang: string): ApiClient;
  withHeaders(headers: Record<string, string>): ApiClient;
  get<T = unknown>(
    path: string,
    query?: Record<string, string | number | undefined>,
  ): Promise<ApiResponse<T>>;
  /** Form-encoded by default (as the app sends); `json: true` sends JSON instead. */
  post<T = unknown>(
    path: string,
    body?: Record<string, unknown>,
    opts?: { json?: boolean },
  ): Promise<ApiResponse<T>>;
  /** Any request, for raw bodies and headers. */
  raw(path: string, init?: RequestInit): Promise<Response>;
}

function formEncode(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  return params.toString();
}

/** Real HTTP against a station: form-encoded POSTs, query-string GETs, optional Bearer token and language. */
export function api(
  baseUrl: string,
  token: string | null = null,
  headers: Record<string, string> = {},
): ApiClient {
  const common = (): Record<string, string> => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...headers,
  });
  const parse = async <T>(res: Response): Promise<ApiResponse<T>> => {
    const text = await res.text();
    let body: Envelope<T>;
    try {
      body = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`not JSON (HTTP ${res.status}): ${text.slice(0, 200)}`);
    }
    return { http: res.status, body, headers: res.headers };
  };
  return {
    baseUrl,
    withToken: (t) => api(baseUrl, t, headers),
    withLang: (lang) => api(baseUrl, token, { ...headers, 'accept-language': lang }),
    withHeaders: (extra) => api(baseUrl, token, { ...headers, ...extra }),
    async get<T>(p: string, query: Record<string, string | number | undefined> = {}) {
      const qs = formEncode(query);
      return parse<T>(await fetch(`${baseUrl}${p}${qs ? `?${qs}` : ''}`, { headers: common() }));
    },
    async post<T>(p: string, body: Record<string, unknown> = {}, opts: { json?: boolean } = {}) {
      const res = await fetch(`${baseUrl}${p}`, {
        method: 'POST',
        headers: {
          ...common(),
          'content-type': opts.json ? 'application/json' : 'application/x-www-form-urlencoded',
        },
        body: opts.json ? JSON.stringify(body) : formEncode(body),
      });
      return parse<T>(res);
    },
    raw: (p, init = {}) =>
      fetch(`${baseUrl}${p}`, {
        ...init,
        headers: { ...common(), ...(init.headers as Record<string, string>) },
      }),
  };
}

/** The data of a success envelope; fails the test with the whole answer otherwise. */
export function data<T>(res: ApiResponse<T>): T {
  if (res.body.status !== 0 || res.http !== 200) {
    throw new Error(`expected success, got HTTP ${res.http}: ${JSON.stringify(res.body)}`);
  }
  return (res.body as { data: T }).data;
}

/** The failure envelope; fails the test if the call succeeded. */
export function failure(res: ApiResponse<unknown>): FailEnvelope {
  if (res.body.status === 0) throw new Error(`expected a failure, got ${JSON.stringify(res.body)}`);
  return res.body as FailEnvelope;
}

let phoneCounter = 0;
/** A phone number not used before in this test process. */
export function newPhone(): string {
  phoneCounter += 1;
  return `139${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(5, '0')}`;
}

export interface Registered {
  phone: string;
  password: string;
  token: string;
  user: User;
  client: ApiClient;
}

/** Registers a new user through the real calls (demo SMS code) and returns a logged-in client. */
export async function register(
  client: ApiClient,
  opts: { phone?: string; password?: string; inviteCode?: string } = {},
): Promise<Registered> {
  const phone = opts.phone ?? newPhone();
  const password = opts.password ?? 'pass1234';
  const sms = data(
    await client.post<{ ttlSeconds: number; demoCode?: string }>('/api/sms/sendRegSms.do', { phone }),
  );
  if (!sms.demoCode) throw new Error('the demo SMS gateway did not return a code');
  const result = data(
    await client.post<AuthResult>('/api/user/reg.do', {
      phone,
      password,
      code: sms.demoCode,
      inviteCode: opts.inviteCode,
    }),
  );
  return { phone, password, token: result.token, user: result.user, client: client.withToken(result.token) };
}

let requestCounter = 0;
/** A fresh client-made request id. */
export function newRequestId(): string {
  requestCounter += 1;
  return `req-${process.pid}-${requestCounter}-${randomBytes(4).toString('hex')}`;
}
