/** The first schema: users and sessions, SMS codes, accounts and their ledger, positions, idempotency keys. */
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

/** Column types that differ between SQLite and PostgreSQL. */
interface Columns {
  pg: boolean;
  id: 'bigserial' | 'integer';
  money: 'bigint';
  time: 'bigint';
}

/** Users, sessions, SMS codes and bank cards. */
async function createIdentityTables(db: Kysely<unknown>, c: Columns): Promise<void> {
  const { pg, id, time } = c;
  await db.schema
    .createTable('users')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('phone', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('invite_code', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('inviter_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('real_name', 'varchar(64)')
    .addColumn('kyc_status', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .addColumn('kyc_fail_reason', 'varchar(255)')
    .addColumn('withdraw_password_hash', 'varchar(255)')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('revoked_at', time)
    .execute();

  await db.schema
    .createTable('sms_codes')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('phone', 'varchar(20)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('code', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('sms_codes_phone')
    .on('sms_codes')
    .columns(['phone', 'purpose', 'id'])
    .execute();

  await db.schema
    .createTable('bank_cards')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id'))
    .addColumn('bank_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('branch', 'varchar(128)', (c) => c.notNull())
    .addColumn('card_no', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
}

/** Accounts and their ledger entries. */
async function createMoneyTables(db: Kysely<unknown>, c: Columns): Promise<void> {
  const { pg, id, money, time } = c;
  await db.schema
    .createTable('accounts')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('balance', money, (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('accounts_user_type', ['user_id', 'type'])
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('time', time, (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('balance_after', money, (c) => c.notNull())
    .addColumn('ref_type', 'varchar(32)')
    .addColumn('ref_id', 'bigint')
    .addColumn('note', 'varchar(255)')
    .execute();
  await db.schema.createIndex('ledger_user').on('ledger_entries').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('ledger_account').on('ledger_entries').columns(['account_id', 'id']).execute();
}

/** Positions and idempotency keys. */
async function createPositionTables(db: Kysely<unknown>, c: Columns): Promise<void> {
  const { pg, id, money, time } = c;
  await db.schema
    .createTable('positions')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('code', 'varchar(16)', (c) => c.notNull())
    .addColumn('market', 'varchar(8)', (c) => c.notNull())
    .addColumn('direction', 'varchar(8)', (c) => c.notNull())
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('lots', 'integer', (c) => c.notNull())
    .addColumn('shares', 'bigint', (c) => c.notNull())
    .addColumn('leverage', 'integer', (c) => c.notNull())
    .addColumn('open_price', 'double precision', (c) => c.notNull())
    .addColumn('open_value', money, (c) => c.notNull())
    .addColumn('margin', money, (c) => c.notNull())
    .addColumn('buy_fee', money, (c) => c.notNull())
    .addColumn('buy_fee_detail', 'text', (c) => c.notNull())
    .addColumn('sell_fee', money, (c) => c.notNull().defaultTo(0))
    .addColumn('sell_fee_detail', 'text')
    .addColumn('stamp_duty', money, (c) => c.notNull().defaultTo(0))
    .addColumn('deferred_fee', money, (c) => c.notNull().defaultTo(0))
    .addColumn('stop_profit', 'double precision')
    .addColumn('stop_loss', 'double precision')
    .addColumn('opened_at', time, (c) => c.notNull())
    .addColumn('sellable_from', time, (c) => c.notNull())
    .addColumn('closed_at', time)
    .addColumn('close_price', 'double precision')
    .addColumn('close_value', money)
    .addColumn('close_reason', 'varchar(16)')
    .addColumn('split_from', 'bigint')
    .execute();
  await db.schema
    .createIndex('positions_user_state')
    .on('positions')
    .columns(['user_id', 'state', 'id'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('call', 'varchar(64)', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'request_id'])
    .execute();
}

export function initialSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const columns: Columns = { pg, id: pg ? 'bigserial' : 'integer', money: 'bigint', time: 'bigint' };
  return {
    async up(db: Kysely<unknown>) {
      await createIdentityTables(db, columns);
      await createMoneyTables(db, columns);
      await createPositionTables(db, columns);
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'idempotency_keys',
        'positions',
        'ledger_entries',
        'accounts',
        'bank_cards',
        'sms_codes',
        'sessions',
        'users',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
