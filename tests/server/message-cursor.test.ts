/**
 * The message stream's cursor over a real database: each committed message handed out once, a message whose
 * id commits late (PostgreSQL hands out ids before commit) still handed out, and a gap left by a rolled-back
 * insert passed after GAP_WAIT_MS (the wait's clock is the test's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessageCursor, GAP_WAIT_MS } from '../../server/ledger/message-feed';
import { api, dbTargets, register, startStation, type Registered, type TestStation } from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

describe.each(dbTargets)('message stream cursor (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let user: Registered;

  beforeAll(async () => {
    station = await startStation({ db });
    user = await register(api(station.url));
  });
  afterAll(async () => station?.close());

  const insert = (id: number) =>
    station.app.db
      .insertInto('user_messages')
      .values({
        id,
        user_id: user.user.id,
        kind: 'test',
        msg_key: 'kycPassed',
        params: '{}',
        ref_type: null,
        ref_id: null,
        created_at: 0,
        read_at: null,
      })
      .execute();
  const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id));

  it('hands out each message once, waits for a late id, and passes a gap after the wait', async () => {
    let now = 1_000_000;
    const cursor = createMessageCursor(station.app.db, () => now);
    await insert(1000);
    expect(ids(await cursor.next())).toEqual([]); // starts at the newest message
    await insert(1001);
    await insert(1003);
    expect(ids(await cursor.next())).toEqual([1001, 1003]);
    expect(ids(await cursor.next())).toEqual([]);
    // 1002 commits late: handed out, and 1003 not again.
    await insert(1002);
    await insert(1004);
    expect(ids(await cursor.next())).toEqual([1002, 1004]);

    // 1005 never commits: 1006 goes out at once; after the wait the cursor passes 1005.
    await insert(1006);
    expect(ids(await cursor.next())).toEqual([1006]);
    now += GAP_WAIT_MS + 1;
    expect(ids(await cursor.next())).toEqual([]);
    await insert(1007);
    expect(ids(await cursor.next())).toEqual([1007]);
    expect(ids(await cursor.next())).toEqual([]);
  });
});
