/**
 * A position keeps the rate its values are settled at: account-currency units per unit of the currency its
 * price is quoted in (DOMAIN.md: an index contract is worth points × multiplier in the index's own currency,
 * settled in the index account at the flash-exchange rate). 1 for every position priced in its account's
 * currency, which is every position written before.
 */
import type { Kysely, Migration } from 'kysely';

export function positionFxSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('positions')
        .addColumn('fx_rate', 'double precision', (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('positions').dropColumn('fx_rate').execute();
    },
  };
}
