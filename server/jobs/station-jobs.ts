/**
 * The station's periodic steps, each a function of the station at an instant, and the scheduler that runs
 * them (main.ts and the test harnesses start it; nothing in the HTTP layer starts a timer):
 * - `engine`, every second: deposit and withdrawal reviews, new-share draws, payment deadlines and listings,
 *   fund-allocation events, then every minute since the engine's stored progress (limit-order triggers,
 *   stops, liquidations, day closes and their deferred fees) (server/trading/engine.ts);
 * - `kyc-review`, every second: KYC submissions due for the rule reviewer's decision (server/identity/kyc.ts).
 * Every effect of a step is keyed or conditional, so a step repeated, or run by a new leader over an old
 * leader's last one, changes nothing twice.
 */
import { createEngine, type Engine } from '../trading/engine';
import type { Station } from '../platform/station';
import { runKycReviewer } from '../identity/kyc';
import { createScheduler, type Scheduler } from './scheduler';

/** How often the engine and the KYC reviewer run on the real timer (ms). */
export const STEP_EVERY_MS = 1000;

export interface StationJobs {
  /** The trading engine, which the `engine` job steps. */
  engine: Engine;
  /** Runs the KYC review now, after any review going on; how many submissions it decided. */
  reviewKyc(): Promise<number>;
  scheduler: Scheduler;
}

export interface StationJobsOptions {
  /** How often the engine steps on the timer (ms; 0: only when asked for). */
  engineEveryMs: number;
  /** How often the KYC reviewer runs on the timer (ms; 0: only when asked for). */
  kycReviewEveryMs: number;
  isLeader(): boolean;
  logError(error: unknown, job: string): void;
}

/** The engine (its start recorded in the database) and the scheduler of every periodic step, not started. */
export async function createStationJobs(station: Station, options: StationJobsOptions): Promise<StationJobs> {
  const engine = createEngine(station);
  await engine.init();
  const scheduler = createScheduler({
    now: () => station.clock.now(),
    isLeader: options.isLeader,
    logError: options.logError,
  });
  scheduler.add({ name: 'engine', everyMs: options.engineEveryMs, step: (now) => engine.step(now) });
  const reviewKyc = scheduler.add({
    name: 'kyc-review',
    everyMs: options.kycReviewEveryMs,
    step: (now) => runKycReviewer(station, now),
  });
  return { engine, reviewKyc, scheduler };
}
