/**
 * Open positions read by account: every order's answer shows the account-wide liquidation price, which
 * reads the account's open positions (DOMAIN.md "Leverage, margin and liquidation"). Without this index
 * that read scanned every position ever held, closed ones included.
 */
import type { Kysely, Migration } from 'kysely';

export function positionsByAccountSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('positions_account_state')
        .on('positions')
        .columns(['account_id', 'state', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('positions_account_state').execute();
    },
  };
}
