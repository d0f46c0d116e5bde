/**
 * Every order's answer shows the account-wide liquidation price, so it reads the account's open positions
 * (DOMAIN.md "Leverage, margin and liquidation"). That read must go through an index: without one it
 * scanned every position the station ever held, and an order cost twice the CPU after a few thousand
 * trades (npm run bench). SQLite's query plan shows which index a query uses.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../../server/market/clock';
import { startStation, type TestStation } from './helpers/station';

describe('the order path reads by index (SQLite)', () => {
  let station: TestStation<FixedClock>;
  beforeAll(async () => {
    station = await startStation({ db: 'sqlite' });
  });
  afterAll(() => station.close());

  it("reads an account's open positions through the positions_account_state index", async () => {
    const plan = await sql<{ detail: string }>`
      explain query plan
      select * from positions where account_id = ${1} and state = ${'open'} order by id`.execute(
      station.app.station.db,
    );
    const details = plan.rows.map((row) => row.detail).join('\n');
    expect(details).toMatch(/USING INDEX positions_account_state/);
    expect(details).not.toMatch(/SCAN positions(?! USING)/);
  });
});
