/**
 * Currency flash exchange (exchange.do, exchangeLog.do, findSpreadRateOne.do) between CNY (main account),
 * HKD (hk) and USD (us) at the day's simulated rate (exchange/rate) less the spread (DOMAIN.md: 0.3%).
 *
 * Rules decided here:
 * - received = ⌊amount × cnyPer(source) ÷ cnyPer(target) × (1 − spread)⌋ in minor units, exactly: the
 *   rule is src/shared/flash-exchange.ts, which the exchange screen's preview uses too.
 * - Only available cash can be exchanged (what pending limit orders hold stays); an amount that would give
 *   less than one minor unit is refused (BELOW_MINIMUM).
 * - One 'exchange_out' and one 'exchange_in' entry in one transaction, once per requestId.
 */
import type { AccountType, Currency, ExchangeRecord, Page, SpreadRate } from '../../src/shared/api/types';
import { toMajor } from '../../src/shared/money';
import { exchangedAmount, midRate } from '../../src/shared/flash-exchange';
import type { Selectable } from 'kysely';
import { AppError, runOnce, storedAnswer, type ExchangesTable, type Station } from '../platform';
import { post } from '../ledger';
import { lockAccounts } from './transfer';
import { amountToMinor, moneyText } from './wallet';

export const CURRENCIES: readonly Currency[] = ['CNY', 'HKD', 'USD'];

/** The account that holds each currency. */
export const CURRENCY_ACCOUNT: Record<Currency, AccountType> = { CNY: 'main', HKD: 'hk', USD: 'us' };

function toExchangeRecord(row: Selectable<ExchangesTable>): ExchangeRecord {
  return {
    id: row.id,
    source: row.source,
    target: row.target,
    sourceAmount: toMajor(row.source_amount),
    targetAmount: toMajor(row.target_amount),
    midRate: row.mid_rate,
    spreadRate: row.spread_rate,
    createdAt: row.created_at,
  };
}

function checkPair(source: Currency | undefined, target: Currency | undefined): void {
  if (source !== undefined && target !== undefined && source === target) {
    throw new AppError('VALIDATION', { fields: { target: 'invalid' } });
  }
}

/** findSpreadRateOne.do: the spread, and with a pair its mid rate and the rate after the spread. */
export function spreadRate(
  station: Station,
  query: { source?: Currency | undefined; target?: Currency | undefined },
): SpreadRate {
  checkPair(query.source, query.target);
  const spread = station.config.wallet.exchangeSpreadRate;
  const { source, target } = query;
  if (source === undefined || target === undefined) {
    return { spreadRate: spread, source: source ?? null, target: target ?? null, midRate: null, rate: null };
  }
  const mid = midRate(station.market.exchangeRates(station.clock.now()).cnyPer, source, target);
  return { spreadRate: spread, source, target, midRate: mid, rate: mid * (1 - spread) };
}

export async function exchange(
  station: Station,
  userId: number,
  input: { amount: number; source: Currency; target: Currency; requestId: string },
): Promise<ExchangeRecord> {
  const call = 'exchange';
  const earlier = await storedAnswer<ExchangeRecord>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  checkPair(input.source, input.target);
  const amount = amountToMinor(input.amount);
  const now = station.clock.now();
  const { cnyPer } = station.market.exchangeRates(now);
  const spread = station.config.wallet.exchangeSpreadRate;
  const received = exchangedAmount(amount, cnyPer, input.source, input.target, spread);
  if (received < 1) throw new AppError('BELOW_MINIMUM', { msgKey: 'EXCHANGE_TOO_SMALL' });
  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const fromType = CURRENCY_ACCOUNT[input.source];
    const toType = CURRENCY_ACCOUNT[input.target];
    const locked = await lockAccounts(station, trx, userId, [fromType, toType]);
    const from = locked.get(fromType)!;
    const to = locked.get(toType)!;
    const available = from.balance - from.frozen;
    if (amount > available) {
      throw new AppError('INSUFFICIENT_FUNDS', {
        msgKey: 'EXCHANGE_ABOVE_AVAILABLE',
        params: { available: moneyText(Math.max(0, available)), currency: input.source },
      });
    }
    const row = await trx
      .insertInto('exchanges')
      .values({
        user_id: userId,
        source: input.source,
        target: input.target,
        source_amount: amount,
        target_amount: received,
        mid_rate: midRate(cnyPer, input.source, input.target),
        spread_rate: spread,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const note = `${input.source}→${input.target}`;
    // The FX desk takes the source currency and pays out the target one: one leg per currency.
    await post(trx, {
      time: now,
      refType: 'exchange',
      refId: row.id,
      entries: [
        { userId, accountId: from.id, type: 'exchange_out', amount: -amount, note },
        { userId, accountId: to.id, type: 'exchange_in', amount: received, note },
      ],
      house: [
        { house: 'fx', amount, currency: input.source },
        { house: 'fx', amount: -received, currency: input.target },
      ],
    });
    return toExchangeRecord(row);
  });
}

export async function listExchanges(
  station: Station,
  userId: number,
  query: { pageNum: number; pageSize: number },
): Promise<Page<ExchangeRecord>> {
  const base = station.db.selectFrom('exchanges').where('user_id', '=', userId);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map(toExchangeRecord),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
