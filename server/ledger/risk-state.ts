/**
 * The rule book's state of an account (src/shared/risk.ts) from its rows: the one mapping the engine's risk
 * step, the position views and the account figures share, so the R an account shows is the R that triggers.
 * It lives in the ledger area because the account figures are shaped here and the trading area builds on it.
 */
import type { AccountRiskState, RiskPosition } from '../../src/shared/risk';
import type { AccountRow, PositionRow } from '../platform';

/** The rule book's view of a position at a price. */
export function riskPosition(p: PositionRow, price: number): RiskPosition {
  return {
    id: p.id,
    code: p.code,
    direction: p.direction,
    shares: p.shares,
    openValue: p.open_value,
    margin: p.margin,
    price,
    fxRate: p.fx_rate,
  };
}

/** The rule book's state of an account: available cash, its positions, a sub-account's allocated funds. */
export function accountRiskState(
  account: Pick<AccountRow, 'balance' | 'frozen'>,
  allocation: { allocated: number } | null,
  positions: { row: PositionRow; price: number }[],
): AccountRiskState {
  return {
    cash: account.balance - account.frozen,
    borrowedCapital: allocation?.allocated ?? 0,
    positions: positions.map(({ row, price }) => riskPosition(row, price)),
  };
}
