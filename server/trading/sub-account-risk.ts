/**
 * The risk step of the sub-accounts of trading allocations, once per engine step at `now` (their R is
 * valued when the engine steps, after the day's management fees), through the same risk step as main
 * accounts (risk-step.ts).
 *
 * An allocation past its end (at or after its last close) is left alone: its period is over, and its
 * settlement is the expiry's (DOMAIN.md "Fund allocation": expired at the end of the period), at the day's
 * last price, even when the allocation events' step has not run yet. Valued later, its R would take the
 * next day's prices, or the last day's fee without the repayment that comes with it, and could end it as
 * a liquidation instead.
 */
import type { Station } from '../platform';
import type { RiskCounts, RiskStep } from './risk-step';

export async function checkSubAccounts(
  station: Station,
  risk: RiskStep,
  now: number,
  counts: RiskCounts,
): Promise<void> {
  const allocations = await station.db
    .selectFrom('allocations')
    .selectAll()
    .where('status', '=', 'trading')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id')
    .execute();
  if (allocations.length === 0) return;
  const episodes = await station.db
    .selectFrom('engine_runs')
    .select('key')
    .where('kind', '=', 'risk_episode')
    .execute();
  const warned = new Set(episodes.map((e) => Number(e.key)));
  for (const allocation of allocations) {
    if (allocation.account_id === null) continue;
    const account = await station.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', allocation.account_id)
      .executeTakeFirstOrThrow();
    const positions = await station.db
      .selectFrom('positions')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('state', '=', 'open')
      .orderBy('id')
      .execute();
    await risk.check({ account, allocation }, positions, now, warned, counts);
  }
}
