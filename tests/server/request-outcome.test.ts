/**
 * request/outcome.do over HTTP: what became of a money call whose answer was lost (API.md "Idempotency").
 * The stored first answer for the user's requestId, or "not seen" (a refused call stores nothing; another
 * user's requestId is not seen either), and the same requestId sent again after "not seen" runs once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Position } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

type Outcome = { seen: false } | { seen: true; call: string; answer: unknown };

describe.each(dbTargets)('request/outcome.do: the truth about a lost answer (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const outcome = async (user: { client: ApiClient }, requestId: string) =>
    data(await user.client.get<Outcome>('/user/request/outcome.do', { requestId }));

  it('answers the stored first answer of a buy, to its user only; "not seen" for an id never sent', async () => {
    const user = await register(client);
    const other = await register(client);
    const requestId = newRequestId();
    expect(await outcome(user, requestId)).toEqual({ seen: false });

    const bought = data(
      await user.client.post<Position>('/user/buy.do', { code: 'AAPL', lots: 3, leverage: 1, requestId }),
    );
    expect(await outcome(user, requestId)).toEqual({ seen: true, call: 'buy', answer: bought });
    // The same id from another user is another request, never seen.
    expect(await outcome(other, requestId)).toEqual({ seen: false });
    await station.assertLedger();
  });

  it('"not seen" for a refused call, which did nothing; the same id sent again runs once', async () => {
    const user = await register(client);
    const requestId = newRequestId();
    const before = await station.counts();
    // More than the account can pay: refused, nothing written.
    const refused = failure(
      await user.client.post('/user/buy.do', { code: 'AAPL', lots: 10_000, leverage: 1, requestId }),
    );
    expect(refused.code).toBe('INSUFFICIENT_FUNDS');
    expect(await outcome(user, requestId)).toEqual({ seen: false });
    expect((await station.counts()).positions).toBe(before.positions);

    // "Not seen": the app may send the order again with the same id; twice is still one position.
    const again = newRequestId();
    const first = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 2,
        leverage: 1,
        requestId: again,
      }),
    );
    const second = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 2,
        leverage: 1,
        requestId: again,
      }),
    );
    expect(second).toEqual(first);
    expect(await outcome(user, again)).toEqual({ seen: true, call: 'buy', answer: first });
    const open = data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }));
    expect(open.list).toHaveLength(1);
    await station.assertLedger();
  });

  it('needs a session and a well-formed requestId', async () => {
    expect(failure(await client.get('/user/request/outcome.do', { requestId: newRequestId() })).code).toBe(
      'NOT_LOGGED_IN',
    );
    const user = await register(client);
    expect(failure(await user.client.get('/user/request/outcome.do', { requestId: 'not an id!' })).code).toBe(
      'VALIDATION',
    );
    expect(failure(await user.client.get('/user/request/outcome.do')).code).toBe('VALIDATION');
  });
});
