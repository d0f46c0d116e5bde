/**
 * Price alerts over HTTP with a pinned clock: the calls and their refusals, each kind firing once at the
 * first minute its condition holds (found by scanning the seeded market minute by minute, never hard-coded),
 * re-arming, the cap, and the message that reaches the user in the message centre and on the message stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceAlert, PriceAlertKind } from '../../src/shared/api/alerts';
import type { UserMessage, UserMessagePage } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

const MINUTE = 60_000;
const VALUE_INVALID = 'Enter a price above 0, or a change between −100% and +1000%';
const ALREADY_MET = 'The condition is already met at the current price: choose another value';
const HOUR = 60 * MINUTE;

type Station = TestStation<FixedClock>;

function quoteAt(station: Station, code: string, t: number) {
  const found = station.app.market.findTradable(code)!;
  return station.app.market.tradableQuote(found, t);
}
const tradingAt = (station: Station, code: string, t: number) => {
  const found = station.app.market.findTradable(code)!;
  return station.app.market.isOpen(found.instrument, t);
};

/** The first whole minute in (from, from + hours] where `pred` holds while the instrument trades. */
function firstMinute(station: Station, code: string, from: number, pred: (t: number) => boolean, hours = 8) {
  for (let t = Math.floor(from / MINUTE) * MINUTE + MINUTE; t <= from + hours * HOUR; t += MINUTE) {
    if (tradingAt(station, code, t) && pred(t)) return t;
  }
  return null;
}

/** A value for `kind` that the price reaches for the first time some minutes after `from`, and that minute. */
function crossing(station: Station, code: string, kind: PriceAlertKind, from: number) {
  const field = kind.startsWith('price') ? 'price' : 'changePct';
  const up = kind.endsWith('Above');
  const now = quoteAt(station, code, from)[field];
  // The extreme of the next two hours beyond the current figure: first reached strictly after `from`.
  let value: number | null = null;
  for (let t = from + MINUTE; t <= from + 2 * HOUR; t += MINUTE) {
    if (!tradingAt(station, code, t)) continue;
    const v = quoteAt(station, code, t)[field];
    if (up ? v > now && (value === null || v > value) : v < now && (value === null || v < value)) value = v;
  }
  if (value === null) return null;
  const target = value;
  const at = firstMinute(station, code, from, (t) => {
    const v = quoteAt(station, code, t)[field];
    return up ? v >= target : v <= target;
  });
  return at === null ? null : { value: target, at };
}

async function stepTo(station: Station, t: number) {
  station.clock.set(t);
  return station.app.engine.step();
}

async function alerts(user: Registered): Promise<PriceAlert[]> {
  return data(await user.client.get<PriceAlert[]>('/user/alert/list.do'));
}

async function addAlert(user: Registered, body: { code: string; kind: PriceAlertKind; value: number }) {
  return user.client
    .withLang('en')
    .post<PriceAlert>('/user/alert/add.do', { requestId: newRequestId(), ...body });
}

async function alertMessages(user: Registered, lang = 'en'): Promise<UserMessage[]> {
  const page = data(
    await user.client.withLang(lang).get<UserMessagePage>('/user/cash/getMessagelist.do', { pageSize: 100 }),
  );
  return page.list.filter((m) => m.kind === 'alert');
}

const STOCKS = ['600519', '600036', '00700', 'AAPL', '601318', 'MSFT'];

describe.each(dbTargets)('price alerts (%s, always-open, pinned clock)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, clock: new FixedClock(T0) });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('adds, lists and deletes alerts; refuses what it cannot watch, with field messages', async () => {
    const user = await register(client);
    const price = quoteAt(station, '600519', station.clock.now()).price;
    const added = data(await addAlert(user, { code: '600519', kind: 'priceAbove', value: price * 1.1 }));
    expect(added).toMatchObject({ code: '600519', kind: 'priceAbove', firedAt: null, firedPrice: null });
    expect(added.armedAt).toBe(station.clock.now());
    expect((await alerts(user)).map((a) => a.id)).toEqual([added.id]);

    // The same requestId again: the first answer, nothing added.
    const requestId = newRequestId();
    const body = { code: '600519', kind: 'priceBelow', value: price * 0.9, requestId };
    const once = data(await user.client.post<PriceAlert>('/user/alert/add.do', body));
    const twice = data(await user.client.post<PriceAlert>('/user/alert/add.do', body));
    expect(twice).toEqual(once);
    expect(await alerts(user)).toHaveLength(2);

    expect(failure(await addAlert(user, { code: 'NOPE99', kind: 'priceAbove', value: 1 })).code).toBe(
      'NOT_FOUND',
    );
    const bad = failure(await addAlert(user, { code: '600519', kind: 'priceAbove', value: 0 }));
    expect(bad.code).toBe('VALIDATION');
    expect(bad.fields).toEqual({ value: VALUE_INVALID });
    const wrongKind = await user.client.post('/user/alert/add.do', {
      code: '600519',
      kind: 'sideways',
      value: 1,
      requestId: newRequestId(),
    });
    expect(failure(wrongKind).code).toBe('VALIDATION');
    expect(failure(await addAlert(user, { code: '600519', kind: 'changeAbove', value: 20 })).fields).toEqual({
      value: VALUE_INVALID,
    });
    // A condition that already holds would fire at once: refused, translated.
    const met = failure(
      await user.client.withLang('zh-CN').post('/user/alert/add.do', {
        code: '600519',
        kind: 'priceBelow',
        value: price * 2,
        requestId: newRequestId(),
      }),
    );
    expect(met.fields).toEqual({ value: '当前价格已满足该条件，请换一个数值' });
    expect(await alerts(user)).toHaveLength(2);

    // Another user sees none of them and cannot delete or re-arm them.
    const other = await register(client);
    expect(await alerts(other)).toEqual([]);
    data(await other.client.post('/user/alert/del.do', { id: added.id }));
    expect(failure(await other.client.post('/user/alert/rearm.do', { id: added.id })).code).toBe('NOT_FOUND');
    expect(await alerts(user)).toHaveLength(2);

    data(await user.client.post('/user/alert/del.do', { id: added.id }));
    expect((await alerts(user)).map((a) => a.id)).toEqual([once.id]);
    expect(failure(await client.get('/user/alert/list.do')).code).toBe('NOT_LOGGED_IN');
  });

  it('holds at most alertsMax alerts per user (ABOVE_MAXIMUM, translated)', async () => {
    const user = await register(client);
    const max = station.config.settings.alertsMax;
    station.config.settings.alertsMax = 3;
    try {
      const price = quoteAt(station, '600036', station.clock.now()).price;
      for (let i = 1; i <= 3; i++) {
        data(await addAlert(user, { code: '600036', kind: 'priceAbove', value: price * (1 + i / 100) }));
      }
      const full = failure(
        await user.client.withLang('en').post('/user/alert/add.do', {
          code: '600036',
          kind: 'priceAbove',
          value: price * 1.5,
          requestId: newRequestId(),
        }),
      );
      expect(full.code).toBe('ABOVE_MAXIMUM');
      expect(full.msg).toBe('You can set at most 3 alerts, please delete some first');
      expect(await alerts(user)).toHaveLength(3);
    } finally {
      station.config.settings.alertsMax = max;
    }
  });

  it.each<PriceAlertKind>(['priceAbove', 'priceBelow', 'changeAbove', 'changeBelow'])(
    '%s fires once, at the first minute its condition holds, with a message',
    async (kind) => {
      const user = await register(client);
      const from = station.clock.now();
      const found = STOCKS.map((code) => ({ code, c: crossing(station, code, kind, from) })).find((x) => x.c);
      if (!found?.c) throw new Error(`no stock crosses for ${kind}`);
      const { code, c } = found;
      const alert = data(await addAlert(user, { code, kind, value: c.value }));

      if (c.at - MINUTE > from) await stepTo(station, c.at - MINUTE);
      expect((await alerts(user))[0]!.firedAt).toBeNull();
      expect(await alertMessages(user)).toEqual([]);

      await stepTo(station, c.at);
      const [fired] = await alerts(user);
      expect(fired).toMatchObject({
        id: alert.id,
        firedAt: c.at,
        firedPrice: quoteAt(station, code, c.at).price,
      });
      const messages = await alertMessages(user);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ refType: 'alert', refId: alert.id, createdAt: c.at });
      expect(messages[0]!.content).toContain(code);
      expect(messages[0]!.title).toBe('Price alert');
      expect((await alertMessages(user, 'zh-CN'))[0]!.title).toBe('价格提醒');

      // Handling the minute again, or later minutes, fires nothing twice.
      await station.app.engine.step(c.at);
      await stepTo(station, c.at + 30 * MINUTE);
      expect(await alertMessages(user)).toHaveLength(1);
    },
  );

  it('re-arms a fired alert from now, and refuses when it would fire at once', async () => {
    const user = await register(client);
    const from = station.clock.now();
    const found = STOCKS.map((code) => ({ code, c: crossing(station, code, 'priceAbove', from) })).find(
      (x) => x.c,
    );
    if (!found?.c) throw new Error('no stock rises');
    const { code, c } = found;
    const alert = data(await addAlert(user, { code, kind: 'priceAbove', value: c.value }));
    await stepTo(station, c.at);
    expect((await alerts(user))[0]!.firedAt).toBe(c.at);

    // Still at or above the value: re-arming would fire at once.
    const refused = failure(await user.client.withLang('en').post('/user/alert/rearm.do', { id: alert.id }));
    expect(refused.fields).toEqual({ value: ALREADY_MET });

    // Once the price is back below, it re-arms and fires at its next crossing.
    const below = firstMinute(station, code, c.at, (t) => quoteAt(station, code, t).price < c.value, 48);
    if (below === null) throw new Error('the price never comes back below');
    await stepTo(station, below);
    const rearmed = data(await user.client.post<PriceAlert>('/user/alert/rearm.do', { id: alert.id }));
    expect(rearmed).toMatchObject({ firedAt: null, armedAt: below });
    const again = firstMinute(station, code, below, (t) => quoteAt(station, code, t).price >= c.value, 72);
    if (again === null) throw new Error('the price never rises back to the value');
    for (let t = below; t < again; t = Math.min(again, t + 24 * HOUR)) await stepTo(station, t);
    await stepTo(station, again);
    expect((await alerts(user))[0]!.firedAt).toBe(again);
    expect(await alertMessages(user)).toHaveLength(2);
  });

  it('watches indexes and futures too', async () => {
    const user = await register(client);
    const market = station.app.market;
    const index = market.indexes()[0]!.code;
    const future = market.futures()[0]!.code;
    for (const code of [index, future]) {
      const price = quoteAt(station, code, station.clock.now()).price;
      const added = data(await addAlert(user, { code, kind: 'priceAbove', value: price * 1.5 }));
      expect(added.market).toBe(code === index ? 'index' : 'futures');
    }
    expect(await alerts(user)).toHaveLength(2);
  });

  it('pushes a fired alert on the message stream, and resumes after Last-Event-ID', async () => {
    const user = await register(client);
    const from = station.clock.now();
    const found = STOCKS.map((code) => ({ code, c: crossing(station, code, 'priceBelow', from) })).find(
      (x) => x.c,
    );
    if (!found?.c) throw new Error('no stock falls');
    const { code, c } = found;
    const alert = data(await addAlert(user, { code, kind: 'priceBelow', value: c.value }));

    const controller = new AbortController();
    const res = await fetch(`${station.url}/user/stream/messages?lang=zh-CN`, {
      headers: { authorization: `Bearer ${user.token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Another user's message must not reach this stream.
    const other = await register(client);
    data(await addAlert(other, { code, kind: 'priceBelow', value: c.value }));

    await stepTo(station, c.at);
    while (!/event: message\ndata: .*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    const [, id, json] = /id: (\d+)\nevent: message\ndata: (.*)\n\n/.exec(text)!;
    const message = JSON.parse(json!) as UserMessage;
    expect(message).toMatchObject({ kind: 'alert', refType: 'alert', refId: alert.id, title: '价格提醒' });
    expect(Number(id)).toBe(message.id);
    expect(text.match(/event: message/g)).toHaveLength(1);

    // A reconnect after the id before it gets the message at once.
    const resumed = new AbortController();
    const again = await fetch(`${station.url}/user/stream/messages`, {
      headers: { authorization: `Bearer ${user.token}`, 'last-event-id': String(message.id - 1) },
      signal: resumed.signal,
    });
    const r2 = again.body!.getReader();
    let text2 = '';
    while (!text2.includes('event: message')) {
      const { value, done } = await r2.read();
      if (done) break;
      text2 += decoder.decode(value, { stream: true });
    }
    resumed.abort();
    expect(text2).toContain(`id: ${message.id}\n`);
    expect(failure(await client.get('/user/stream/messages')).code).toBe('NOT_LOGGED_IN');
  });
});
