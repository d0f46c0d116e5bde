/**
 * The risk step of the sub-accounts of trading allocations, once per engine step at `now` (their R is
 * valued when the engine steps, after the day's management fees), through the same risk step as main
 * accounts (risk-step.ts).
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
