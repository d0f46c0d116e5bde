/**
 * The station's periodic steps, each a function of the station at an instant, and the scheduler that runs
 * them (main.ts and the test harnesses start it; nothing in the HTTP layer starts a timer):
 * - `wallet-review`, every second: deposits and withdrawals due for the pay channel's answer
 *   (server/wallet/wallet-review.ts);
 * - `new-share-events`, every second: draws, payment deadlines and listings due (server/products/new-shares.ts);
 * - `allocation-events`, every second: reviews, daily fees and expiries of fund allocations due
 *   (server/products/fund-allocation.ts);
 * - `engine`, every second: every minute since the engine's stored progress (limit-order triggers, stops,
 *   liquidations, day closes and their deferred fees) (server/trading/engine.ts);
 * - `kyc-review`, every second: KYC submissions due for the rule reviewer's decision (server/identity/kyc.ts),
 *   then permission requests due for its grant (server/identity/permissions.ts);
 * - `competition-ranking`, every second: the ranking snapshot of each competition started and not frozen,
 *   frozen at its end (server/competitions/ranking.ts);
 * - `upload-sweep`, hourly: KYC photos left out of every submission for UPLOAD_ORPHAN_HOURS are deleted
 *   (server/identity/upload-quota.ts);
 * - scale-out mode only: `tick-publish`, at each second, the leader's publication of the live quotes
 *   (server/market/tick-publisher.ts), and `stream-interest`, every 5 s on every process, what its stream
 *   clients watch, said again so the leader keeps quoting it.
 * `StationJobs.engine.step` runs the first four in that order, as the timer would, for callers that move
 * the station on by hand (tests, a pinned clock).
 * Every effect of a step is keyed or conditional, so a step repeated, or run by a new leader over an old
 * leader's last one, changes nothing twice.
 */
import { createEngine, type Engine, type EngineStepResult } from '../trading';
import { reviewDueWalletRequests } from '../wallet';
import { endLiquidatedAllocation, runDueAllocationEvents, runDueNewShareEvents } from '../products';
import type { Station, TickBus } from '../platform';
import { runKycReviewer, runPermissionReviewer, sweepOrphanUploads } from '../identity';
import { createTickPublisher } from '../market';
import { rankCompetitions } from '../competitions';
import { createScheduler, type Scheduler } from './scheduler';

/** How often the engine and the KYC reviewer run on the real timer (ms). */
export const STEP_EVERY_MS = 1000;
/** How often photos in no KYC submission are looked for (ms). */
const UPLOAD_SWEEP_EVERY_MS = 3_600_000;
/** How often a process says again what its stream clients watch (well within INTEREST_TTL_MS). */
const INTEREST_RENEW_MS = 5000;

export interface StationJobs {
  /**
   * Everything due at an instant, in the timer's order: wallet reviews, new-share events, allocation
   * events, then the trading engine's minutes.
   */
  engine: Engine;
  /** Runs the KYC and permission reviews now, after any review going on; how many they decided. */
  reviewKyc(): Promise<number>;
  /** Takes the competitions' rankings now (after any ranking going on); how many competitions. */
  rankCompetitions(): Promise<number>;
  scheduler: Scheduler;
}

export interface StationJobsOptions {
  /** How often the engine steps on the timer (ms; 0: only when asked for). */
  engineEveryMs: number;
  /** How often the KYC reviewer runs on the timer (ms; 0: only when asked for). */
  kycReviewEveryMs: number;
  isLeader(): boolean;
  /** Tells of each change of leadership (scale-out mode). */
  onLeaderChange(listener: () => void): void;
  /** The live-tick fan-out between processes (scale-out mode); null with one process. */
  tickBus: TickBus | null;
  logError(error: unknown, job: string): void;
  /** MARKET_SOURCE=replay: reads the stored replay clock into this process's (every process, each second). */
  followReplay?: () => Promise<void>;
}

/** The engine (its start recorded in the database) and the scheduler of every periodic step, not started. */
export async function createStationJobs(station: Station, options: StationJobsOptions): Promise<StationJobs> {
  const trading = createEngine(station, {
    endLiquidatedAllocation: (id, t) => endLiquidatedAllocation(station, id, t),
  });
  await trading.init();
  const scheduler = createScheduler({
    now: () => station.clock.now(),
    isLeader: options.isLeader,
    logError: options.logError,
  });
  const every = options.engineEveryMs;
  if (options.followReplay) {
    // First, so each second's other steps see the operator's latest pause or resume.
    scheduler.add({ name: 'replay-clock', everyMs: 1000, everyProcess: true, step: options.followReplay });
  }
  const reviewWallet = scheduler.add({
    name: 'wallet-review',
    everyMs: every,
    step: (now) => reviewDueWalletRequests(station, now),
  });
  const newShareEvents = scheduler.add({
    name: 'new-share-events',
    everyMs: every,
    step: (now) => runDueNewShareEvents(station, now),
  });
  const allocationEvents = scheduler.add({
    name: 'allocation-events',
    everyMs: every,
    step: (now) => runDueAllocationEvents(station, now),
  });
  const runEngine = scheduler.add({ name: 'engine', everyMs: every, step: (now) => trading.step(now) });
  const engine: Engine = {
    init: trading.init,
    async step(now?: number): Promise<EngineStepResult> {
      if (now !== undefined) {
        await reviewDueWalletRequests(station, now);
        await runDueNewShareEvents(station, now);
        await runDueAllocationEvents(station, now);
        return trading.step(now);
      }
      await reviewWallet();
      await newShareEvents();
      await allocationEvents();
      return runEngine();
    },
  };
  const reviewKyc = scheduler.add({
    name: 'kyc-review',
    everyMs: options.kycReviewEveryMs,
    step: async (now) => (await runKycReviewer(station, now)) + (await runPermissionReviewer(station, now)),
  });
  const ranking = scheduler.add({
    name: 'competition-ranking',
    everyMs: every,
    step: (now) => rankCompetitions(station, now),
  });
  // Hourly is plenty: an orphan waits UPLOAD_ORPHAN_HOURS (a day by default) anyway.
  scheduler.add({
    name: 'upload-sweep',
    everyMs: UPLOAD_SWEEP_EVERY_MS,
    step: (now) => sweepOrphanUploads(station, now),
  });
  if (options.tickBus) addStreamJobs(station, scheduler, options.tickBus, options.onLeaderChange);
  return { engine, reviewKyc, rankCompetitions: ranking, scheduler };
}

/** The live stream's jobs in scale-out mode. */
function addStreamJobs(
  station: Station,
  scheduler: Scheduler,
  tickBus: TickBus,
  onLeaderChange: (listener: () => void) => void,
): void {
  const publisher = createTickPublisher(station.market, tickBus);
  onLeaderChange(() => publisher.reset());
  scheduler.add({ name: 'tick-publish', everyMs: 1000, aligned: true, step: () => publisher.step() });
  scheduler.add({
    name: 'stream-interest',
    everyMs: INTEREST_RENEW_MS,
    everyProcess: true,
    step: () => tickBus.renewInterest(),
  });
}
