/**
 * Account and ledger rows as API.md's `account` and `ledgerEntry` shapes.
 * - account.balance = the ledger's sum (margins already moved out of it); available = balance − frozen (the
 *   funds pending limit orders hold); frozenMargin = margin of the account's open positions; positionPnl =
 *   their net pnl; totalAssets = balance + frozenMargin + their price pnl (the fees charged so far have
 *   already left the balance, so adding the net pnl would count them twice).
 * - account.todayPnl = Σ today's price P&L of its open positions (src/shared/pnl.ts todayPnl).
 * - account.riskRatio, borrowed, longValue, shortValue: the R the engine decides on and its parts
 *   (src/shared/risk.ts riskExposure); warningLine and liquidationLine are the station's settings. The risk
 *   gauge (src/shared/risk-gauge.ts) reads them.
 */
import { toMajor } from '../../src/shared/money';
import { holdingValue, netPnl, pricePnlOf, todayPnl, type TodayMove } from '../../src/shared/pnl';
import type { RiskExposure, RiskLines } from '../../src/shared/risk';
import type { Account, AccountType, LedgerEntry } from '../../src/shared/api/types';
import type { AccountRow, LedgerRow, Messages, PositionRow } from '../platform';
import { noteKeyOf } from './ledger-notes';

/**
 * One of the user's five accounts, as queries read them with `type in (...)`: a fund allocation's
 * sub-account (type 'fund') is shown with its allocation, never as an account (getUserSubaccount.do).
 */
export type OwnAccountRow = AccountRow & { type: AccountType };

/** One open position's part of its account's figures, minor units. */
export interface OpenPositionFigures {
  margin: number;
  pricePnl: number;
  pnl: number;
  todayPnl: number;
}

/**
 * What an account's figures need of one open position valued at `price`, minor units (src/shared/pnl.ts);
 * `today` is the instrument's previous close and whether the position was opened on its current trading day.
 */
export function openPositionFigures(
  row: PositionRow,
  price: number,
  today: Pick<TodayMove, 'prevClose' | 'openedToday'>,
): OpenPositionFigures {
  const { pricePnl, pnl } = netPnl(
    pricePnlOf(row.direction, row.open_value, holdingValue(price, row.shares, row.fx_rate)),
    {
      buyFee: row.buy_fee,
      sellFee: row.sell_fee,
      stampDuty: row.stamp_duty,
      deferredFee: row.deferred_fee,
    },
  );
  const moved = todayPnl({
    direction: row.direction,
    shares: row.shares,
    fxRate: row.fx_rate,
    openPrice: row.open_price,
    price,
    ...today,
  });
  return { margin: row.margin, pricePnl, pnl, todayPnl: moved };
}

export function toAccount(
  row: OwnAccountRow,
  openPositions: readonly OpenPositionFigures[],
  lines: RiskLines,
  exposure: RiskExposure,
): Account {
  const frozenMargin = openPositions.reduce((sum, p) => sum + p.margin, 0);
  const positionPnl = openPositions.reduce((sum, p) => sum + p.pnl, 0);
  const pricePnl = openPositions.reduce((sum, p) => sum + p.pricePnl, 0);
  const today = openPositions.reduce((sum, p) => sum + p.todayPnl, 0);
  const available = row.balance - row.frozen;
  return {
    type: row.type,
    currency: row.currency,
    balance: toMajor(row.balance),
    available: toMajor(available),
    frozenMargin: toMajor(frozenMargin),
    positionPnl: toMajor(positionPnl),
    totalAssets: toMajor(row.balance + frozenMargin + pricePnl),
    todayPnl: toMajor(today),
    liquidationLine: lines.liquidationLine,
    warningLine: lines.warningLine,
    riskRatio: exposure.ratio === null ? null : Number(exposure.ratio.toFixed(6)),
    borrowed: toMajor(exposure.borrowed),
    longValue: toMajor(exposure.longValue),
    shortValue: toMajor(exposure.shortValue),
  };
}

/** A ledger row as the fund flow shows it, its note in the reader's language (`messages`). */
export function toLedgerEntry(row: LedgerRow & { account: AccountType }, messages: Messages): LedgerEntry {
  const said = noteKeyOf(row.note);
  return {
    id: row.id,
    time: row.time,
    account: row.account,
    type: row.type as LedgerEntry['type'],
    amount: toMajor(row.amount),
    balanceAfter: toMajor(row.balance_after),
    refType: row.ref_type,
    refId: row.ref_id,
    note: said ? messages.text(said.key, said.params) : row.note,
    noteKey: said?.key ?? null,
    noteParams: said?.params ?? null,
  };
}
