/**
 * The pay channels behind the wallet, as an interface. PaperDesk is a test station: only the simulated
 * gateway below exists and no real payment, bank or card network is ever connected.
 *
 * The simulation answers by the amount's minor units, like a card network's test numbers, so a tester
 * (or a test) picks the outcome: an amount ending in .13 is declined, .14 is abandoned by the payer (a
 * deposit) and a withdrawal ending in .13 is returned by the bank. Every other amount succeeds.
 */
export type DepositOutcome =
  | { status: 'success' }
  | { status: 'failed' | 'cancelled'; /** `@errors.KEY`, translated when read. */ reason: string };

export type PayoutOutcome = { status: 'paid' } | { status: 'rejected'; reason: string };

export interface PayGateway {
  /** The channel's answer on a deposit once it is due (REVIEW_DELAY_S after it was made). */
  depositOutcome(deposit: { orderNo: string; amount: number; channelId: number }): DepositOutcome;
  /** The bank's answer on a payout once it is due. */
  payoutOutcome(withdrawal: { orderNo: string; amount: number; fee: number }): PayoutOutcome;
}

/** Minor units ending in these cents choose an outcome (see the module comment). */
export const TEST_CENTS = { declined: 13, abandoned: 14 } as const;

export const simulatedPayGateway: PayGateway = {
  depositOutcome({ amount }) {
    const cents = amount % 100;
    if (cents === TEST_CENTS.declined) return { status: 'failed', reason: '@errors.PAY_DECLINED' };
    if (cents === TEST_CENTS.abandoned) return { status: 'cancelled', reason: '@errors.PAY_ABANDONED' };
    return { status: 'success' };
  },
  payoutOutcome({ amount }) {
    if (amount % 100 === TEST_CENTS.declined)
      return { status: 'rejected', reason: '@errors.PAYOUT_RETURNED' };
    return { status: 'paid' };
  },
};
