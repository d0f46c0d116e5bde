/**
 * The watchlist (自选): codes a user follows, shown as live quotes.
 *
 * Rules decided here:
 * - Stocks of every market and futures products may be watched; an index may not (INDEX_NOT_WATCHABLE,
 *   spec); a code that is none of them is NOT_FOUND.
 * - Order: newest first. Each add takes the next sort_order; adding a code already watched changes nothing
 *   (it keeps its place), removing one not watched changes nothing. The user may reorder: the list given
 *   becomes the order; a code added meanwhile (not in the list) stays on top, one removed meanwhile is
 *   skipped, so a reorder never brings back or drops a code.
 * - At most `settings.watchlistMax` codes (ABOVE_MAXIMUM with WATCHLIST_FULL).
 * - A code that later left the catalogue stays removable and is left out of the list.
 */
import type { Quote } from '../../src/shared/api/types';
import { AppError, type Station } from '../platform';

/** The watchable instrument's code for a request's code (upper-cased as the catalogue has it). */
function watchableCode(station: Station, code: string): string {
  const found = station.market.findTradable(code);
  if (!found) throw new AppError('NOT_FOUND');
  if (found.market === 'index') throw new AppError('INDEX_NOT_WATCHABLE');
  return found.instrument.code;
}

export async function addToWatchlist(station: Station, userId: number, rawCode: string): Promise<null> {
  const code = watchableCode(station, rawCode);
  const max = station.config.settings.watchlistMax;
  await station.db.transaction().execute(async (trx) => {
    // One add at a time per user (PostgreSQL; SQLite runs one transaction at a time), so the cap holds.
    if (station.dialect === 'postgres') {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
    const already = await trx
      .selectFrom('watchlist')
      .select('code')
      .where('user_id', '=', userId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (already) return;
    const { n, top } = await trx
      .selectFrom('watchlist')
      .where('user_id', '=', userId)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max<number | null>('sort_order').as('top')])
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) {
      throw new AppError('ABOVE_MAXIMUM', { msgKey: 'WATCHLIST_FULL', params: { max } });
    }
    await trx
      .insertInto('watchlist')
      .values({
        user_id: userId,
        code,
        sort_order: (top === null ? 0 : Number(top)) + 1,
        created_at: station.clock.now(),
      })
      .onConflict((oc) => oc.columns(['user_id', 'code']).doNothing())
      .execute();
  });
  return null;
}

export async function removeFromWatchlist(station: Station, userId: number, rawCode: string): Promise<null> {
  const code = rawCode.toUpperCase();
  const removed = await station.db
    .deleteFrom('watchlist')
    .where('user_id', '=', userId)
    .where('code', '=', code)
    .executeTakeFirst();
  // Removing what is not there is harmless for a known code; an unknown one is NOT_FOUND.
  if (Number(removed.numDeletedRows) === 0 && !station.market.findTradable(code)) {
    throw new AppError('NOT_FOUND');
  }
  return null;
}

export async function isWatched(
  station: Station,
  userId: number,
  rawCode: string,
): Promise<{ watched: boolean }> {
  const found = station.market.findTradable(rawCode);
  if (!found) throw new AppError('NOT_FOUND');
  const row = await station.db
    .selectFrom('watchlist')
    .select('code')
    .where('user_id', '=', userId)
    .where('code', '=', found.instrument.code)
    .executeTakeFirst();
  return { watched: row !== undefined };
}

/**
 * Puts the user's watchlist in the order given (top first). Codes not watched are skipped; codes watched
 * but not given (added meanwhile from another device) stay above, in their order. A code given twice is
 * VALIDATION.
 */
export async function reorderWatchlist(station: Station, userId: number, codes: string[]): Promise<null> {
  const wanted = codes.map((code) => code.toUpperCase());
  if (new Set(wanted).size !== wanted.length) {
    throw new AppError('VALIDATION', { fields: { codes: 'invalid' } });
  }
  await station.db.transaction().execute(async (trx) => {
    if (station.dialect === 'postgres') {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
    const rows = await trx
      .selectFrom('watchlist')
      .select('code')
      .where('user_id', '=', userId)
      .orderBy('sort_order', 'desc')
      .execute();
    const present = new Set(rows.map((row) => row.code));
    const given = new Set(wanted);
    const order = [
      ...rows.map((row) => row.code).filter((code) => !given.has(code)),
      ...wanted.filter((code) => present.has(code)),
    ];
    // Top first: the first code gets the highest sort_order, as the newest add would.
    for (const [index, code] of order.entries()) {
      await trx
        .updateTable('watchlist')
        .set({ sort_order: order.length - index })
        .where('user_id', '=', userId)
        .where('code', '=', code)
        .execute();
    }
  });
  return null;
}

/** The user's watchlist as live quotes, in the user's order (newest first unless reordered). */
export async function watchlistQuotes(station: Station, userId: number): Promise<Quote[]> {
  const rows = await station.db
    .selectFrom('watchlist')
    .select('code')
    .where('user_id', '=', userId)
    .orderBy('sort_order', 'desc')
    .execute();
  const now = station.clock.now();
  const quotes: Quote[] = [];
  for (const { code } of rows) {
    const found = station.market.findTradable(code);
    if (found) quotes.push(station.market.tradableQuote(found, now));
  }
  return quotes;
}
