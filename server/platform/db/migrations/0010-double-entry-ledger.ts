/**
 * The double-entry ledger (ARCHITECTURE.md "Money"): postings, the house's entries, and each user entry's
 * posting. Existing data moves without changing any balance: each existing entry becomes a posting of its
 * own balanced by the house account it moved money against, except the two legs of a transfer (one posting,
 * no house entry) and of a flash exchange (one posting, balanced by the FX account in each currency).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

/** The house account that an existing entry of each type moved money against (the `else` is unreachable). */
const HOUSE_OF_TYPE = sql`case
  when l.type in ('opening_balance', 'reset') then 'paper'
  when l.type in ('buy', 'sell') and l.ref_type = 'newshare' then 'new_shares'
  when l.type in ('buy', 'sell', 'top_up', 'margin_release') then 'market'
  when l.type in ('buy_fee', 'sell_fee', 'stamp_duty', 'withdraw_fee') then 'fees'
  when l.type in ('deferred_fee', 'management_fee', 'allocation_margin', 'allocation_credit',
    'allocation_repay', 'allocation_return') then 'financing'
  when l.type in ('deposit', 'withdraw') then 'gateway'
  when l.type in ('exchange_in', 'exchange_out') then 'fx'
  when l.type in ('fund_buy', 'fund_sell') then 'funds'
  else 'paper' end`;

export function doubleEntryLedgerSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ledger_postings')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('time', 'bigint', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('ref_type', 'varchar(32)')
        .addColumn('ref_id', 'bigint')
        .execute();
      await db.schema
        .createTable('house_entries')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('posting_id', 'bigint', (c) => c.notNull().references('ledger_postings.id'))
        .addColumn('account', 'varchar(16)', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('ledger_entries').addColumn('posting_id', 'bigint').execute();

      // Each existing entry is its own posting, numbered as the entry; a transfer's or an exchange's two legs
      // share the posting of the first.
      await sql`update ledger_entries set posting_id = id`.execute(db);
      await sql`update ledger_entries set posting_id = (
          select min(m.id) from ledger_entries m
          where m.ref_type = ledger_entries.ref_type and m.ref_id = ledger_entries.ref_id
            and m.type in ('transfer_in', 'transfer_out', 'exchange_in', 'exchange_out'))
        where ref_type in ('transfer', 'exchange')
          and type in ('transfer_in', 'transfer_out', 'exchange_in', 'exchange_out')`.execute(db);
      await sql`insert into ledger_postings (id, time, type, ref_type, ref_id)
        select id, time, type, ref_type, ref_id from ledger_entries where posting_id = id`.execute(db);
      // A transfer's legs balance each other; every other entry is balanced by its house account.
      await sql`insert into house_entries (posting_id, account, currency, amount)
        select l.posting_id, ${HOUSE_OF_TYPE}, a.currency, -l.amount
        from ledger_entries l inner join accounts a on a.id = l.account_id
        where not (l.ref_type = 'transfer' and l.type in ('transfer_in', 'transfer_out'))
          and l.type <> 'withdraw_refund'
        order by l.id`.execute(db);
      // A withdrawal's refund comes back from the gateway, and its fee from the fees earned (as new ones do).
      const refunds = sql`from ledger_entries l
        inner join accounts a on a.id = l.account_id
        left join withdrawals w on w.id = l.ref_id and l.ref_type = 'withdrawal'
        where l.type = 'withdraw_refund'`;
      await sql`insert into house_entries (posting_id, account, currency, amount)
        select l.posting_id, 'gateway', a.currency, coalesce(w.fee, 0) - l.amount ${refunds}
        order by l.id`.execute(db);
      await sql`insert into house_entries (posting_id, account, currency, amount)
        select l.posting_id, 'fees', a.currency, -w.fee ${refunds} and w.fee <> 0
        order by l.id`.execute(db);
      if (pg) {
        await sql`select setval(pg_get_serial_sequence('ledger_postings', 'id'),
          coalesce((select max(id) from ledger_postings), 0) + 1, false)`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('ledger_entries').dropColumn('posting_id').execute();
      await db.schema.dropTable('house_entries').execute();
      await db.schema.dropTable('ledger_postings').execute();
    },
  };
}
