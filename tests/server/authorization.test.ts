/**
 * Every `/user/` route the station registers (enumerated from the Fastify instance, so routes added by
 * later issues are covered without changing this file): without a live session it answers
 * NOT_LOGGED_IN; and user B, calling it with user A's ids, can neither read nor change A's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { passKyc, upload } from './helpers/identity';
import { operations, plausible, type Operation } from './helpers/openapi';
import {
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

const A_NAME = '欧阳娜娜';
const A_CARD = '6222020200119876543';
/** A photo only A has: its bytes must never reach B. */
const A_PHOTO = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('A-PRIVATE-PHOTO-MARKER'),
]);

interface Call {
  method: string;
  url: string;
  query: Record<string, string | number>;
  body: Record<string, string | number> | null;
}

describe.each(dbTargets)('authorization of every /user/ call (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let a: Registered;
  let b: Registered;
  let aIds: number[];
  let userRoutes: { method: string; url: string }[];
  let ops: Map<string, Operation>;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    a = await register(client);
    b = await register(client);
    await passKyc(station, a, A_NAME);
    await passKyc(station, b, '李雷');
    data(
      await a.client.post('/user/bank/add.do', { bankName: '工商银行', branch: '北京分行', cardNo: A_CARD }),
    );
    data(await a.client.post('/user/insertWithPwd.do', { withPwd: '135790' }));
    const photo = data(await upload(a.client, A_PHOTO));
    const position = data(
      await a.client.post<Position>('/user/buy.do', {
        code: '600519',
        lots: 1,
        leverage: 2,
        requestId: newRequestId(),
      }),
    );
    aIds = [...new Set([a.user.id, photo.id, position.id, 1, 2, 3])];
    userRoutes = station.app.registeredRoutes.filter((r) => r.url.startsWith('/user/'));
    ops = new Map((await operations(client)).map((op) => [`${op.method} ${op.path}`, op]));
  });
  afterAll(async () => station?.close());

  /** The calls to make for a route: its fields filled plausibly, id-like integers set to `id`. */
  function callsFor(route: { method: string; url: string }, id: number): Call {
    const op = ops.get(`${route.method} ${route.url}`);
    const fill = (fields: Record<string, { type?: string | string[] }>) =>
      Object.fromEntries(
        Object.entries(fields).map(([name, schema]) => {
          const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
          const isInt = type === 'integer' && !/^(pageNum|pageSize|lots|leverage|limit)$/.test(name);
          return [name, isInt ? id : plausible(name, schema, { requestId: newRequestId })];
        }),
      );
    return {
      method: route.method,
      url: route.url,
      query: op ? fill(op.query) : {},
      body: route.method === 'POST' ? (op?.body ? fill(op.body) : {}) : null,
    };
  }

  async function send(as: ApiClient, call: Call): Promise<{ status: number; text: string; type: string }> {
    const qs = new URLSearchParams(
      Object.entries(call.query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const res = await as.raw(`${call.url}${qs ? `?${qs}` : ''}`, {
      method: call.method,
      ...(call.body
        ? {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(
              Object.entries(call.body).map(([k, v]): [string, string] => [k, String(v)]),
            ).toString(),
          }
        : {}),
    });
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream')) {
      // A stream stays open: its first write (the retry line, and any catch-up the caller is owed) will do.
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      await reader.cancel();
      return { status: res.status, text: new TextDecoder().decode(value), type };
    }
    return { status: res.status, text: await res.text(), type };
  }

  /** Everything A can read through the GET /user/ calls, with each of A's ids. */
  async function snapshotOfA(): Promise<string[]> {
    const seen: string[] = [];
    for (const route of userRoutes.filter((r) => r.method === 'GET')) {
      for (const id of aIds) {
        const res = await send(a.client, callsFor(route, id));
        seen.push(`${route.url} ${id} ${res.status} ${res.text}`);
      }
    }
    return seen;
  }

  it('finds the /user/ routes of the station', () => {
    const urls = userRoutes.map((r) => r.url);
    for (const url of [
      '/user/getUserInfo.do',
      '/user/auth.do',
      '/user/bank/add.do',
      '/user/buy.do',
      '/user/updatePwd.do',
    ]) {
      expect(urls).toContain(url);
    }
  });

  it('answers NOT_LOGGED_IN to every /user/ call without a live session, changing nothing', async () => {
    const revoked = await register(client);
    data(await revoked.client.post('/api/user/logout.do'));
    const before = await station.counts();
    const anonymous = [
      client,
      client.withToken('not-a-real-token-aaaaaaaaaaaaaaaaaaaaaaaaa'),
      client.withHeaders({ cookie: 'USER_TOKEN=forged-cookie-value-bbbbbbbbbbbbbbbbbbbbbbb' }),
      revoked.client,
    ];
    for (const route of userRoutes) {
      for (const who of anonymous) {
        const res = await send(who, callsFor(route, a.user.id));
        expect(res.status, `${route.method} ${route.url}`).toBe(401);
        expect(JSON.parse(res.text), `${route.method} ${route.url}`).toMatchObject({
          status: 401,
          code: 'NOT_LOGGED_IN',
          msg: '请先登录',
        });
      }
    }
    expect(await station.counts()).toEqual(before);
  });

  it("never lets user B read or change user A's data, whatever A's ids B sends", async () => {
    const before = await snapshotOfA();
    const secrets = [a.phone, A_NAME, A_CARD, A_CARD.slice(-4) + '"', 'A-PRIVATE-PHOTO-MARKER'];
    for (const route of userRoutes) {
      for (const id of aIds) {
        const res = await send(b.client, callsFor(route, id));
        expect(res.status, `${route.method} ${route.url} id=${id}`).toBeLessThan(500);
        for (const secret of secrets) {
          expect(res.text.includes(secret), `${route.method} ${route.url} id=${id} leaked ${secret}`).toBe(
            false,
          );
        }
      }
    }
    // A's sessions, password and data are as they were.
    expect(await snapshotOfA()).toEqual(before);
    data(await client.post('/api/user/login.do', { phone: a.phone, password: a.password }));
    await station.assertLedger();
  });
});
