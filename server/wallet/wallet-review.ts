/**
 * The station's side of pending deposits and withdrawals: REVIEW_DELAY_S after a request, the (simulated)
 * pay channel answers. The engine's step calls this once per step; every decision is a conditional update
 * from pending, so steps repeated, overlapping with another engine or racing the operator or a user's
 * cancel decide each request exactly once.
 */
import type { Station } from '../platform';
import { reviewDueDeposits } from './deposit';
import { simulatedPayGateway, type PayGateway } from './pay-gateway';
import { reviewDueWithdrawals } from './withdrawal';

export async function reviewDueWalletRequests(
  station: Station,
  now: number,
  gateway: PayGateway = simulatedPayGateway,
): Promise<{ deposits: number; withdrawals: number }> {
  const deposits = await reviewDueDeposits(station, now, (row) =>
    gateway.depositOutcome({ orderNo: row.order_no, amount: row.amount, channelId: row.channel_id }),
  );
  const withdrawals = await reviewDueWithdrawals(station, now, (row) =>
    gateway.payoutOutcome({ orderNo: row.order_no, amount: row.amount, fee: row.fee }),
  );
  return { deposits, withdrawals };
}
