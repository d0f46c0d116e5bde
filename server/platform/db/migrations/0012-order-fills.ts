/**
 * Limit orders keep the price they filled at (a buy at or below its trigger, a sale at or above it) and the
 * instant their day ends: a limit order is a day order that expires at the close of the session it was, or
 * first could be, worked in (DOMAIN.md "Leverage, margin and liquidation").
 */
import type { Kysely, Migration } from 'kysely';

export function orderFillsSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('orders').addColumn('fill_price', 'double precision').execute();
      await db.schema.alterTable('orders').addColumn('expires_at', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('orders').dropColumn('expires_at').execute();
      await db.schema.alterTable('orders').dropColumn('fill_price').execute();
    },
  };
}
