/**
 * The double-entry ledger (ARCHITECTURE.md "Money"): a posting that does not sum to zero per currency is
 * refused and writes nothing; ledger-check names the posting and the account that break its identities; the
 * migration gives every entry written at the previous schema its posting and balancing house entry without
 * changing any balance.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Database } from '../../server/platform/db/database';
import { migrations } from '../../server/platform/db/migrations/index';
import type { DB } from '../../server/platform/db/schema';
import { checkLedger, describeLedgerCheck, post, postingAgainst } from '../../server/ledger/ledger';
import {
  api,
  createPgDatabase,
  dbTargets,
  register,
  startStation,
  type DbTarget,
  type TestStation,
} from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

const LEDGER_MIGRATION = '0010-double-entry-ledger';

async function accountsOf(db: Kysely<DB>, userId: number) {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'type', 'balance'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((r) => [r.type, { id: Number(r.id), balance: Number(r.balance) }]));
}

async function rowCount(db: Kysely<DB>, table: 'ledger_entries' | 'ledger_postings' | 'house_entries') {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(dbTargets)('double-entry postings (%s)', (target: DbTarget) => {
  let station: TestStation<FixedClock> | undefined;
  afterEach(async () => {
    await station?.close();
    station = undefined;
  });

  it('refuses a posting that does not sum to zero per currency, and writes nothing', async () => {
    station = await startStation({ db: target });
    const user = await register(api(station.url));
    const db = station.app.db;
    const before = await accountsOf(db, user.user.id);
    const main = before.get('main')!;
    const hk = before.get('hk')!;
    const counts = {
      entries: await rowCount(db, 'ledger_entries'),
      postings: await rowCount(db, 'ledger_postings'),
      house: await rowCount(db, 'house_entries'),
    };
    const userId = user.user.id;

    const offByOne = db.transaction().execute((trx) =>
      post(trx, {
        time: station!.clock.now(),
        entries: [{ accountId: main.id, userId, type: 'buy', amount: -1000 }],
        house: [{ house: 'market', amount: 999 }],
      }),
    );
    await expect(offByOne).rejects.toThrow(/off by -1 CNY/);
    // Balanced in total but not per currency: CNY out, HKD in, one FX leg in CNY only.
    const mixed = db.transaction().execute((trx) =>
      post(trx, {
        time: station!.clock.now(),
        entries: [
          { accountId: main.id, userId, type: 'exchange_out', amount: -1000 },
          { accountId: hk.id, userId, type: 'exchange_in', amount: 1000 },
        ],
        house: [],
      }),
    );
    await expect(mixed).rejects.toThrow(/off by/);
    const noCurrency = db.transaction().execute((trx) =>
      post(trx, {
        time: station!.clock.now(),
        entries: [
          { accountId: main.id, userId, type: 'exchange_out', amount: -1000 },
          { accountId: hk.id, userId, type: 'exchange_in', amount: 1100 },
        ],
        house: [{ house: 'fx', amount: -100 }],
      }),
    );
    await expect(noCurrency).rejects.toThrow(/needs a currency/);

    expect(await accountsOf(db, user.user.id)).toEqual(before);
    expect({
      entries: await rowCount(db, 'ledger_entries'),
      postings: await rowCount(db, 'ledger_postings'),
      house: await rowCount(db, 'house_entries'),
    }).toEqual(counts);
    await station.assertLedger();
  });

  it('names the posting that does not sum to zero and the account that does not match its entries', async () => {
    station = await startStation({ db: target });
    const user = await register(api(station.url));
    const db = station.app.db;
    const main = (await accountsOf(db, user.user.id)).get('main')!;
    const postingId = await db.transaction().execute((trx) =>
      post(
        trx,
        postingAgainst('gateway', {
          accountId: main.id,
          userId: user.user.id,
          type: 'deposit',
          amount: 5000,
          time: station!.clock.now(),
          refType: 'recharge',
          refId: 77,
        }),
      ),
    );
    const clean = await checkLedger(db);
    expect(clean.unbalanced).toEqual([]);
    expect(clean.mismatches).toEqual([]);
    expect(describeLedgerCheck(clean)[0]).toMatch(/^ledger-check: OK: /);
    expect(clean.house).toContainEqual({ account: 'gateway', currency: 'CNY', balance: -5000 });

    await sql`update house_entries set amount = amount + 1 where posting_id = ${postingId}`.execute(db);
    await sql`update accounts set balance = balance + 7 where id = ${main.id}`.execute(db);
    const broken = await checkLedger(db);
    expect(broken.unbalanced).toEqual([
      { postingId, type: 'deposit', refType: 'recharge', refId: 77, currency: 'CNY', sum: 1 },
    ]);
    expect(broken.mismatches).toEqual([
      expect.objectContaining({ accountId: main.id, userId: user.user.id, type: 'main' }),
    ]);
    const lines = describeLedgerCheck(broken);
    expect(lines[0]).toMatch(/^ledger-check: FAILED/);
    expect(lines).toContainEqual(
      expect.stringContaining(`posting ${postingId} deposit (recharge 77): off by 0.01 CNY`),
    );
    expect(lines).toContainEqual(expect.stringContaining(`account ${main.id} (user ${user.user.id}, main)`));
  });
});

/** A database at the schema before the double-entry ledger. */
async function openAtPreviousSchema(
  target: DbTarget,
): Promise<{ database: Database; done: () => Promise<void> }> {
  if (target === 'postgres') {
    const created = await createPgDatabase();
    const database = openDatabase({ databaseUrl: created.url, sqlitePath: '' });
    const done = async () => {
      await database.close();
      await created.drop();
    };
    return { database, done };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'paperdesk-ledger-migration-'));
  const database = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'station.sqlite') });
  const done = async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { database, done };
}

describe.each(dbTargets)('the double-entry migration (%s)', (target: DbTarget) => {
  it('balances every entry written at the previous schema without changing a balance', async () => {
    const { database, done } = await openAtPreviousSchema(target);
    try {
      const { [LEDGER_MIGRATION]: _ledger, ...previous } = migrations(database.dialect);
      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => previous },
        allowUnorderedMigrations: true,
      });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      const db = database.db;
      // The previous shape, in plain SQL: one-sided entries, each account's balance their sum.
      await sql`insert into users (phone, password_hash, invite_code, kyc_status, created_at)
        values ('13900000001', 'x', 'MIGRATE1', 'none', 0)`.execute(db);
      const ids: Record<string, number> = {};
      for (const [type, currency] of [
        ['main', 'CNY'],
        ['index', 'CNY'],
        ['hk', 'HKD'],
      ] as const) {
        await sql`insert into accounts (user_id, type, currency, balance) values (1, ${type}, ${currency}, 0)`.execute(
          db,
        );
        const row = await sql<{ id: number }>`select id from accounts where type = ${type}`.execute(db);
        ids[type] = Number(row.rows[0]!.id);
      }
      await sql`insert into withdrawals (user_id, account_id, order_no, amount, fee, payee_name, bank_name,
          card_no_masked, status, created_at)
        values (1, ${ids.main}, 'W1', 10000, 100, '王五', '工商银行', '****6543', 'cancelled', 1000)`.execute(
        db,
      );
      const entries: [string, number, string, string | null, number | null][] = [
        ['main', 100_000_000, 'opening_balance', null, null],
        ['hk', 10_000_000, 'opening_balance', null, null],
        ['main', -50_000, 'buy', 'position', 1],
        ['main', -500, 'buy_fee', 'position', 1],
        ['main', 60_000, 'sell', 'position', 1],
        ['main', -600, 'sell_fee', 'position', 1],
        ['main', -1_000, 'transfer_out', 'transfer', 1],
        ['index', 1_000, 'transfer_in', 'transfer', 1],
        ['main', -2_000, 'exchange_out', 'exchange', 1],
        ['hk', 2_150, 'exchange_in', 'exchange', 1],
        ['main', 30_000, 'deposit', 'recharge', 1],
        ['main', -9_900, 'withdraw', 'withdrawal', 1],
        ['main', -100, 'withdraw_fee', 'withdrawal', 1],
        ['main', 10_000, 'withdraw_refund', 'withdrawal', 1],
        ['main', -3_000, 'buy', 'newshare', 1],
        ['main', -700, 'fund_buy', 'fund_trade', 1],
        ['main', -40, 'deferred_fee', 'position', 2],
      ];
      const balances: Record<string, number> = { main: 0, index: 0, hk: 0 };
      for (const [account, amount, type, refType, refId] of entries) {
        balances[account] = balances[account]! + amount;
        await sql`insert into ledger_entries (account_id, user_id, time, type, amount, balance_after, ref_type, ref_id, note)
          values (${ids[account]}, 1, 1000, ${type}, ${amount}, ${balances[account]}, ${refType}, ${refId}, null)`.execute(
          db,
        );
        await sql`update accounts set balance = ${balances[account]} where id = ${ids[account]}`.execute(db);
      }

      await migrateToLatest(database);

      const after = await accountsOf(db, 1);
      expect(Object.fromEntries([...after].map(([type, a]) => [type, a.balance]))).toEqual(balances);
      const result = await checkLedger(db);
      expect(result.unbalanced).toEqual([]);
      expect(result.mismatches).toEqual([]);
      expect(result.entries).toBe(entries.length);
      // The two legs of the transfer and of the exchange are one posting each; every other entry its own.
      expect(result.postings).toBe(entries.length - 2);
      const house = Object.fromEntries(result.house.map((h) => [`${h.account} ${h.currency}`, h.balance]));
      expect(house).toEqual({
        'paper CNY': -100_000_000,
        'paper HKD': -10_000_000,
        'market CNY': 50_000 - 60_000,
        // The refunded withdrawal's fee came back from the fees earned.
        'fees CNY': 500 + 600 + 100 - 100,
        'fx CNY': 2_000,
        'fx HKD': -2_150,
        'gateway CNY': -30_000 + 9_900 - 9_900,
        'new_shares CNY': 3_000,
        'funds CNY': 700,
        'financing CNY': 40,
      });

      // New postings carry on after the moved ones.
      const next = await db.transaction().execute((trx) =>
        post(
          trx,
          postingAgainst('gateway', {
            accountId: ids.main!,
            userId: 1,
            type: 'deposit',
            amount: 100,
            time: 2000,
          }),
        ),
      );
      expect(next).toBeGreaterThan(entries.length);
      expect((await checkLedger(db)).unbalanced).toEqual([]);
    } finally {
      await done();
    }
  });
});
