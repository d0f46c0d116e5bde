/**
 * The engine's risk step (DOMAIN.md "Leverage, margin and liquidation"), one code path for a main account
 * and a fund allocation's sub-account: the account's state → the rule book's decision (src/shared/risk.ts)
 * → a warning once per episode, or the liquidation plan executed position by position.
 *
 * - The state: cash = balance − frozen, the open positions at the price of minute t, and for a sub-account
 *   its allocated funds as borrowed capital; a sub-account uses the lines its allocation was made with.
 * - Episodes: below the warning line the user is messaged once per episode; an `engine_runs` row
 *   ('risk_episode', account id) marks it, and it ends when R is back at or above the line. Positions the
 *   plan may not close now are told once per episode too ('risk_skipped').
 * - Liquidation: at or below the liquidation line the plan's positions are closed at price(t), each in its
 *   own transaction with the account locked, while R re-read on the locked rows is still at or below the
 *   warning line. A sub-account's allocated funds are repaid only by ending the allocation, so its R does
 *   not rise until then: every position is closed, and once none is left open the allocation ends (reason
 *   liquidation).
 */
import { liquidationPlan, riskDecision, riskRatio, type RiskLines } from '../../src/shared/risk';
import {
  isUniqueViolation,
  type AccountRow,
  type AllocationRow,
  type PositionRow,
  type Tx,
  type Station,
} from '../platform';
import { accountRiskState } from './account-risk';
import { postMessage } from '../ledger';

/** An account the risk step watches: a main account, or the sub-account of a trading allocation. */
export interface RiskSubject {
  account: AccountRow;
  /** The allocation whose sub-account this is; null for a main account. */
  allocation: AllocationRow | null;
}

/** What the risk step needs from the engine: prices at a minute and the engine's own close. */
export interface RiskStepDeps {
  priceAt(p: PositionRow, t: number): number;
  /** The price a position may be closed at, at minute t; null when it may not be closed then. */
  closable(p: PositionRow, t: number): { price: number } | null;
  instrumentName(p: PositionRow): string;
  /** Closes a position at t (with its message) if `stillDue` holds on the locked rows; false otherwise. */
  close(
    p: PositionRow,
    t: number,
    price: number,
    stillDue: (locked: PositionRow, account: AccountRow, trx: Tx) => Promise<boolean>,
    message: { msgKey: string; params: Record<string, string | number> },
  ): Promise<boolean>;
  /**
   * Ends a trading allocation whose sub-account the step has liquidated down to nothing left to close
   * (DOMAIN.md "Fund allocation"; the products area owns the settlement). True when it ended it.
   */
  endLiquidatedAllocation(allocationId: number, t: number): Promise<boolean>;
}

export interface RiskCounts {
  warnings: number;
  liquidations: number;
}

export interface RiskStep {
  /** The step for one account at minute t. True when it wrote something the caller's state does not show. */
  check(
    subject: RiskSubject,
    positions: PositionRow[],
    t: number,
    episodes: Set<number>,
    counts: RiskCounts,
  ): Promise<boolean>;
  endEpisode(accountId: number): Promise<void>;
}

const ratioText = (r: number) => r.toFixed(4);

/** The lines of a subject: a sub-account's are those its allocation was made with. */
function linesOf(station: Station, subject: RiskSubject): RiskLines {
  const { settings } = station.config;
  return subject.allocation
    ? { warningLine: subject.allocation.warning_line, liquidationLine: subject.allocation.liquidation_line }
    : { warningLine: settings.warningLine, liquidationLine: settings.liquidationLine };
}

/** Runs `write` unless the engine_runs row (kind, key) exists; false when it did. */
async function once(
  station: Station,
  kind: string,
  key: string,
  t: number,
  write: (trx: Tx) => Promise<void>,
): Promise<boolean> {
  try {
    await station.db.transaction().execute(async (trx) => {
      await trx.insertInto('engine_runs').values({ kind, key, done_at: t, note: null }).execute();
      await write(trx);
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

async function openPositionsOf(trx: Tx, accountId: number): Promise<PositionRow[]> {
  return trx
    .selectFrom('positions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('state', '=', 'open')
    .orderBy('id')
    .execute();
}

/** The warning message: the account's for a main account, the allocation's for a sub-account. */
function warningMessage(subject: RiskSubject, ratio: number, lines: RiskLines, t: number) {
  const { account, allocation } = subject;
  const common = { userId: account.user_id, kind: 'risk_warning', now: t } as const;
  const levels = { warningLine: lines.warningLine, liquidationLine: lines.liquidationLine };
  return allocation
    ? {
        ...common,
        msgKey: 'allocationWarning',
        params: { id: allocation.id, ratio: ratioText(ratio), ...levels },
        refType: 'allocation',
        refId: allocation.id,
      }
    : {
        ...common,
        msgKey: 'riskWarning',
        params: { account: account.type, ratio: ratioText(ratio), ...levels },
        refType: 'account',
        refId: account.id,
      };
}

export function createRiskStep(station: Station, deps: RiskStepDeps): RiskStep {
  const stateAt = (subject: RiskSubject, account: AccountRow, positions: PositionRow[], t: number) =>
    accountRiskState(
      account,
      subject.allocation,
      positions.map((row) => ({ row, price: deps.priceAt(row, t) })),
    );

  async function endEpisode(accountId: number): Promise<void> {
    await station.db
      .deleteFrom('engine_runs')
      .where('kind', 'in', ['risk_episode', 'risk_skipped'])
      .where('key', '=', String(accountId))
      .execute();
  }

  /** Whether R on the locked rows is still at or below the warning line (and a sub-account still trades). */
  async function stillAtRisk(subject: RiskSubject, account: AccountRow, trx: Tx, t: number) {
    if (subject.allocation) {
      const allocation = await trx
        .selectFrom('allocations')
        .select('status')
        .where('id', '=', subject.allocation.id)
        .executeTakeFirst();
      if (allocation?.status !== 'trading') return false;
    }
    const ratio = riskRatio(stateAt(subject, account, await openPositionsOf(trx, account.id), t));
    return ratio !== null && ratio <= linesOf(station, subject).warningLine;
  }

  async function check(
    subject: RiskSubject,
    positions: PositionRow[],
    t: number,
    episodes: Set<number>,
    counts: RiskCounts,
  ): Promise<boolean> {
    const { account } = subject;
    const lines = linesOf(station, subject);
    const state = stateAt(subject, account, positions, t);
    const ratio = riskRatio(state);
    const decision = riskDecision(ratio, lines);
    if (decision === 'ok' || ratio === null) {
      if (episodes.has(account.id)) {
        await endEpisode(account.id);
        episodes.delete(account.id);
      }
      return false;
    }
    if (!episodes.has(account.id)) {
      const message = warningMessage(subject, ratio, lines, t);
      const warned = await once(station, 'risk_episode', String(account.id), t, (trx) =>
        postMessage(trx, message),
      );
      episodes.add(account.id);
      if (warned) counts.warnings++;
    }
    if (decision !== 'liquidate') return false;

    const byId = new Map(positions.map((p) => [p.id, p]));
    const quotes = new Map(positions.map((p) => [p.id, deps.closable(p, t)]));
    const plan = liquidationPlan(state, (p) => quotes.get(p.id) != null);
    let changed = false;
    for (const id of plan.close) {
      const p = byId.get(id)!;
      let recovered = false;
      const closed = await deps.close(
        p,
        t,
        quotes.get(id)!.price,
        async (_locked, lockedAccount, trx) => {
          const due = await stillAtRisk(subject, lockedAccount, trx, t);
          recovered = !due;
          return due;
        },
        {
          msgKey: 'liquidation',
          params: {
            code: p.code,
            name: deps.instrumentName(p),
            ratio: ratioText(ratio),
            liquidationLine: lines.liquidationLine,
          },
        },
      );
      if (closed) {
        changed = true;
        counts.liquidations++;
      }
      if (recovered) break;
    }
    if (plan.skipped.length > 0) {
      const codes = plan.skipped.map((id) => byId.get(id)!.code).join(', ');
      await once(station, 'risk_skipped', String(account.id), t, (trx) =>
        postMessage(trx, {
          userId: account.user_id,
          kind: 'liquidation',
          msgKey: 'liquidationSkipped',
          params: { codes, ratio: ratioText(ratio) },
          refType: 'account',
          refId: account.id,
          now: t,
        }),
      );
    } else if (subject.allocation && (await deps.endLiquidatedAllocation(subject.allocation.id, t))) {
      changed = true;
    }
    return changed;
  }

  return { check, endEpisode };
}
