/**
 * A user's request for a permission (the VIP permission asked for from the app): pending until the rule
 * reviewer grants it after REVIEW_DELAY_S, or, when VIP_PERMISSION=operator, until the operator does.
 */
import type { Kysely, Migration } from 'kysely';

export function permissionRequestsSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('permission_requests')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('permission', 'varchar(32)', (c) => c.notNull())
        .addColumn('requested_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_at', 'bigint')
        .addPrimaryKeyConstraint('permission_requests_pk', ['user_id', 'permission'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('permission_requests').execute();
    },
  };
}
