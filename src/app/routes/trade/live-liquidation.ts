/**
 * The account-wide liquidation price of each open position at live prices (DOMAIN.md "Leverage, margin and
 * liquidation": the engine and the screen use one function, src/shared/risk.ts liquidationPrice). The
 * station's list answers it at its prices; between refreshes the streamed prices of the account's other
 * positions move it, so the screen recomputes it from the same figures the station used.
 */
import type { Account, AccountType, Market, Position } from '../../../shared/api/types';
import { toMinor } from '../../../shared/money';
import { holdingValue } from '../../../shared/pnl';
import { liquidationPrice, type AccountRiskState } from '../../../shared/risk';

/**
 * Each open position's liquidation price (unrounded) with the prices in `live` (by code; the list's price
 * where a code has none), or the station's figure when no price of its account moved since the list.
 * Accounts are told apart by `type` as `tradingAccount` names them: the user's own account types, or a
 * competition's accounts by their currency (one account per currency).
 */
export function liveLiquidationPrices<K extends string = AccountType>(
  positions: readonly Position[],
  accounts: readonly (Pick<Account, 'available'> & { type: K })[],
  tradingAccount: Readonly<Record<Market, K>>,
  live: ReadonlyMap<string, number>,
  line: number,
): Map<number, number | null> {
  const answer = new Map<number, number | null>();
  const byAccount = new Map<K, Position[]>();
  for (const p of positions) {
    const type = tradingAccount[p.market];
    byAccount.set(type, [...(byAccount.get(type) ?? []), p]);
  }
  for (const [type, held] of byAccount) {
    const account = accounts.find((a) => a.type === type);
    const moved = held.some((p) => (live.get(p.code) ?? p.currentPrice) !== p.currentPrice);
    if (!account || !moved) {
      for (const p of held) answer.set(p.id, p.liquidationPrice);
      continue;
    }
    const state: AccountRiskState = {
      cash: toMinor(account.available),
      borrowedCapital: 0,
      positions: held.map((p) => ({
        id: p.id,
        code: p.code,
        direction: p.direction,
        shares: p.shares,
        openValue: holdingValue(p.openPrice, p.shares, p.fxRate),
        margin: toMinor(p.margin),
        price: live.get(p.code) ?? p.currentPrice,
        fxRate: p.fxRate,
      })),
    };
    for (const p of held) answer.set(p.id, liquidationPrice(state, p.code, line));
  }
  return answer;
}
