/**
 * The reading side: news, notices, college articles and site pages as Markdown per language,
 * and the in-app customer-service threads the operator command line answers.
 */
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function contentSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('content_items')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('slug', 'varchar(100)', (c) => c.notNull())
        .addColumn('lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('summary', 'varchar(500)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('source', 'varchar(100)', (c) => c.notNull())
        .addColumn('published_at', time, (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('hidden', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addUniqueConstraint('content_items_slug', ['kind', 'slug', 'lang'])
        .execute();
      await db.schema
        .createIndex('content_items_list')
        .on('content_items')
        .columns(['kind', 'hidden', 'published_at'])
        .execute();

      await db.schema
        .createTable('service_messages')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('sender', 'varchar(8)', (c) => c.notNull())
        .addColumn('staff_name', 'varchar(64)')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('read_at', time)
        .execute();
      await db.schema
        .createIndex('service_messages_user')
        .on('service_messages')
        .columns(['user_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('service_messages').execute();
      await db.schema.dropTable('content_items').execute();
    },
  };
}
