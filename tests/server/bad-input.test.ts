import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FailEnvelope } from '../../src/shared/api/envelope';
import {
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

const SQL = "600519'; DROP TABLE users; --";
const HTML = '<script>alert(1)</script>';
const HUGE = 'x'.repeat(10_000);

/** A refusal in the envelope: 4xx, status equal to the HTTP status, a code and a message. */
function expectRefused(res: ApiResponse<unknown>, what: string): FailEnvelope {
  const body = res.body as FailEnvelope;
  expect(res.http, `${what}: ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
  expect(res.http, `${what}: ${JSON.stringify(body)}`).toBeLessThan(500);
  expect(body.status).toBe(res.http);
  expect(typeof body.code).toBe('string');
  expect(body.msg.length).toBeGreaterThan(0);
  expect(JSON.stringify(body)).not.toMatch(/SQLITE|syntax error|at .*\.ts:\d+|stack/i);
  return body;
}

describe.each(dbTargets)('bad input never reaches a 500 and writes nothing (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let user: Registered;

  beforeAll(async () => {
    station = await startStation({ db });
    user = await register(api(station.url));
  });
  afterAll(async () => station?.close());
  afterEach(async () => station.assertLedger());

  const goodBuy = () => ({ code: 'AAPL', lots: 1, leverage: 1, requestId: newRequestId() });

  const badBuys: [string, Record<string, unknown>][] = [
    ['negative lots', { lots: -1 }],
    ['zero lots', { lots: 0 }],
    ['fractional lots', { lots: 1.5 }],
    ['NaN lots', { lots: 'NaN' }],
    ['Infinity lots', { lots: 'Infinity' }],
    ['overflowing lots', { lots: '1e400' }],
    ['empty lots', { lots: '' }],
    ['text lots', { lots: 'abc' }],
    ['SQL in lots', { lots: '1 OR 1=1' }],
    ['huge lots', { lots: '9'.repeat(400) }],
    ['SQL in the code', { code: SQL }],
    ['HTML in the code', { code: HTML }],
    ['a huge code', { code: HUGE }],
    ['text leverage', { leverage: 'ten' }],
    ['negative leverage', { leverage: -5 }],
    ['a huge requestId', { requestId: HUGE }],
    ['HTML in the requestId', { requestId: HTML }],
    ['a missing requestId', { requestId: undefined }],
    ['an unknown field', { isAdmin: 'true' }],
    ['an unknown direction', { direction: 'sideways' }],
    ['a negative stop loss', { stopLoss: -1 }],
    ['HTML in the stop profit', { stopProfit: HTML }],
  ];

  it.each(badBuys)('refuses a buy with %s, as a form and as JSON', async (what, patch) => {
    const before = await station.counts();
    for (const json of [false, true]) {
      const res = await user.client.post('/user/buy.do', { ...goodBuy(), ...patch }, { json });
      const body = expectRefused(res, `${what} (${json ? 'JSON' : 'form'})`);
      expect(body.code).toBe('VALIDATION');
      expect(Object.keys(body.fields ?? {}).length, what).toBeGreaterThan(0);
    }
    expect(await station.counts()).toEqual(before);
  });

  it('names the quantity rule of spec §5 for bad lots', async () => {
    const fields = async (lots: unknown, json = false) =>
      (await user.client.post('/user/buy.do', { ...goodBuy(), lots }, { json })).body as FailEnvelope;
    expect((await fields(-1)).fields).toEqual({ lots: '数量不能小于1' });
    expect((await fields(0, true)).fields).toEqual({ lots: '数量不能小于1' });
    expect((await fields(2.5)).fields).toEqual({ lots: '数量必须是整数' });
    expect((await fields('')).fields).toEqual({ lots: '数量不能为空' });
    expect((await fields(undefined)).fields).toEqual({ lots: '数量不能为空' });
    // Text that is not a number says so (not "cannot be empty").
    expect((await fields('NaN')).fields).toEqual({ lots: '数量必须是数字' });
  });

  it('refuses JSON values of the wrong shape', async () => {
    const before = await station.counts();
    for (const lots of [true, { $gt: 0 }, [1, 2], null]) {
      expectRefused(
        await user.client.post('/user/buy.do', { ...goodBuy(), lots }, { json: true }),
        `lots ${JSON.stringify(lots)}`,
      );
    }
    expectRefused(
      await user.client.post('/user/buy.do', { ...goodBuy(), code: { toString: 1 } }, { json: true }),
      'object code',
    );
    const arrayBody = await user.client.raw('/user/buy.do', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([goodBuy()]),
    });
    expect(arrayBody.status).toBe(400);
    // A repeated form field is a list, not a number.
    expectRefused(await user.client.post('/user/buy.do', { ...goodBuy(), lots: [1, 2] }), 'repeated lots');
    expect(await station.counts()).toEqual(before);
  });

  it('refuses bad sells and writes nothing', async () => {
    const before = await station.counts();
    for (const patch of [
      { positionId: -1 },
      { positionId: 'abc' },
      { positionId: SQL },
      { positionId: 1.5 },
      { lots: 0 },
      { lots: 'x' },
    ]) {
      expectRefused(
        await user.client.post('/user/sell.do', { positionId: 1, requestId: newRequestId(), ...patch }),
        JSON.stringify(patch),
      );
    }
    expectRefused(
      await user.client.post('/user/sell.do', { positionId: 999_999, requestId: newRequestId() }),
      'unknown position',
    );
    expect(await station.counts()).toEqual(before);
  });

  it('refuses bad registrations and writes nothing', async () => {
    const client = api(station.url);
    const before = await station.counts();
    const bodies: Record<string, unknown>[] = [
      { phone: SQL, password: 'abc123', code: '123456' },
      { phone: '13800000000', password: HUGE, code: '123456' },
      { phone: '13800000000', password: 'abc123', code: HTML },
      { phone: '13800000000', password: "' OR ''='", code: '123456' },
      { phone: HUGE, password: 'abc123', code: '123456' },
      { phone: '13800000000', password: 'abc123', code: '123456', role: 'admin' },
      { phone: '13800000000', password: 'abc123', code: '123456', inviteCode: HTML },
    ];
    for (const body of bodies) {
      for (const json of [false, true]) {
        const res = await client.post('/api/user/reg.do', body, { json });
        expect(expectRefused(res, JSON.stringify(body).slice(0, 80)).code).toBe('VALIDATION');
      }
    }
    const nested = await client.post(
      '/api/user/login.do',
      { phone: { $ne: null }, password: { $ne: null } },
      { json: true },
    );
    expect(expectRefused(nested, 'nested login').code).toBe('VALIDATION');
    expect(await station.counts()).toEqual(before);
  });

  it('refuses bad market queries', async () => {
    const client = api(station.url);
    const queries: [string, Record<string, string | number>][] = [
      ['/api/stock/getStock.do', { market: 'xx' }],
      ['/api/stock/getStock.do', { market: 'a', pageSize: 1000 }],
      ['/api/stock/getStock.do', { market: 'a', pageNum: 0 }],
      ['/api/stock/getStock.do', { market: 'a', pageNum: -1 }],
      ['/api/stock/getStock.do', { market: 'a', keyword: SQL }],
      ['/api/stock/getStock.do', { market: 'a', keyword: HTML }],
      ['/api/stock/getStock.do', { market: 'a', keyword: HUGE }],
      ['/api/stock/getStock.do', { market: 'a', sort: 'name; DROP' }],
      ['/api/stock/getStock.do', { market: 'a', debug: 1 }],
      ['/api/stock/getSingleStock.do', { code: SQL }],
      ['/api/stock/getSingleStock.do', { code: HUGE }],
      ['/api/stock/getDayK.do', { code: '600519', limit: 5000 }],
      ['/api/stock/getDayK.do', { code: '600519', before: 'yesterday' }],
      ['/api/stock/getDayK.do', { code: '600519', period: 'year' }],
      ['/api/stock/getMinK_Echarts.do', { code: '600519', period: '2' }],
      ['/api/user/checkPhone.do', { phone: HTML }],
      ['/user/cash/list.do', { account: 'savings' }],
      ['/user/position/list.do', { state: 'pending' }],
    ];
    for (const [path, query] of queries) {
      const res = await (path.startsWith('/user/') ? user.client : client).get(path, query);
      expect(expectRefused(res, `${path} ${JSON.stringify(query).slice(0, 60)}`).code).toBe('VALIDATION');
    }
  });

  it('refuses malformed, oversized and unsupported bodies', async () => {
    const before = await station.counts();
    const malformed = await user.client.raw('/user/buy.do', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"code": "AAPL", "lots":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      msg: '请求格式不正确，请检查后重试',
    });
    const proto = await user.client.raw('/user/buy.do', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__": {"isAdmin": true}, "code": "AAPL", "lots": 1, "leverage": 1, "requestId": "abcdefgh"}',
    });
    expect(proto.status).toBe(400);
    const large = await user.client.raw('/user/buy.do', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      body: `code=AAPL&lots=1&leverage=1&requestId=abcdefgh&x=${'a'.repeat(70_000)}`,
    });
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ status: 413, code: 'VALIDATION', msg: 'The request is too large' });
    const xml = await user.client.raw('/user/buy.do', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<buy/>',
    });
    expect(xml.status).toBe(415);
    expect(await xml.json()).toMatchObject({ status: 415, code: 'VALIDATION' });
    expect(await station.counts()).toEqual(before);
  });

  it('answers unknown API paths with a NOT_FOUND envelope and bad URLs with a 400', async () => {
    const client = api(station.url);
    expect((await client.get('/api/no/such.do')).body).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      msg: '找不到该内容',
    });
    expect((await client.post('/user/no/such.do')).http).toBe(404);
    const badUrl = await client.raw('/api/stock/%E0%A4%A');
    expect([400, 404]).toContain(badUrl.status);
    expect(((await badUrl.json()) as FailEnvelope).status).toBe(badUrl.status);
  });

  it('still works after all that', async () => {
    data(await user.client.post('/user/buy.do', goodBuy()));
    await station.assertLedger();
  });
});

describe('a real fault', () => {
  it('answers 500 INTERNAL with a plain message, logs the error and leaks no SQL', async () => {
    const station = await startStation({ db: 'sqlite', captureLogs: true });
    try {
      const user = await register(api(station.url));
      // Break the database under the running station: the fund flow's table disappears.
      await station.app.db.schema.dropTable('ledger_entries').execute();
      const res = await user.client.withLang('en').get('/user/cash/list.do');
      expect(res.http).toBe(500);
      expect(res.body).toEqual({
        status: 500,
        code: 'INTERNAL',
        msg: 'Something went wrong on the server, please try again later',
      });
      expect(
        station.logs.some((line) => line.includes('"level":50') && line.includes('ledger_entries')),
      ).toBe(true);
    } finally {
      await station.close();
    }
  });
});
