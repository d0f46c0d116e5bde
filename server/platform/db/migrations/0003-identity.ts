/**
 * Identity: atomic SMS throttles and daily counters, login guards, KYC submissions and their
 * uploaded photos, per-user permission flags, the operator audit log and the site settings tables.
 */
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function identitySchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      // One row per phone and purpose: the last send. A conditional upsert takes the slot atomically.
      await db.schema
        .createTable('sms_throttle')
        .addColumn('phone', 'varchar(20)', (c) => c.notNull())
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
        .addColumn('last_sent_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('sms_throttle_pk', ['phone', 'purpose'])
        .execute();

      // Counters per key and period (e.g. SMS sends per phone per local day).
      await db.schema
        .createTable('rate_counters')
        .addColumn('key', 'varchar(160)', (c) => c.notNull())
        .addColumn('period', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_counters_pk', ['key', 'period'])
        .execute();

      // Failed logins per phone: attempts in the current window, and the lock's end (0: not locked).
      await db.schema
        .createTable('login_guards')
        .addColumn('phone', 'varchar(20)', (c) => c.primaryKey())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('window_start', time, (c) => c.notNull())
        .addColumn('locked_until', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('uploads')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('file_name', 'varchar(80)', (c) => c.notNull().unique())
        .addColumn('mime', 'varchar(32)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('uploads_user').on('uploads').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('kyc_submissions')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('real_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('id_number', 'varchar(18)', (c) => c.notNull())
        .addColumn('front_upload_id', 'bigint', (c) => c.notNull().references('uploads.id'))
        .addColumn('back_upload_id', 'bigint', (c) => c.notNull().references('uploads.id'))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('fail_reason', 'varchar(255)')
        .addColumn('decided_by', 'varchar(32)')
        .addColumn('submitted_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .execute();
      await db.schema
        .createIndex('kyc_submissions_status')
        .on('kyc_submissions')
        .columns(['status', 'submitted_at'])
        .execute();
      await db.schema
        .createIndex('kyc_submissions_user')
        .on('kyc_submissions')
        .columns(['user_id', 'id'])
        .execute();

      await db.schema
        .createTable('user_permissions')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('permission', 'varchar(32)', (c) => c.notNull())
        .addColumn('granted_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission'])
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('time', time, (c) => c.notNull())
        .addColumn('actor', 'varchar(64)', (c) => c.notNull())
        .addColumn('action', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_id', 'bigint')
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('reason', 'varchar(500)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('site_settings')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'site_settings',
        'audit_log',
        'user_permissions',
        'kyc_submissions',
        'uploads',
        'login_guards',
        'rate_counters',
        'sms_throttle',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
