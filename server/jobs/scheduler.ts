/**
 * The one scheduler of the station's periodic work (ARCHITECTURE.md "The test station"): each job is a step
 * of the station at an instant, run on its own interval on the real timer. A run of a job never overlaps
 * another run of the same job: a tick that finds it still running (a long catch-up) is not queued behind, the
 * next tick looks again; a run asked for by hand (the runner `add` returns: tests, a trigger) waits for the
 * one going on.
 * In scale-out mode only the elected leader runs jobs on the timer (server/platform/leader.ts); each step goes on
 * from the state stored in the database, so a new leader takes over where the old one stopped.
 */

/** A periodic step of the station. */
export interface Job<T> {
  name: string;
  /** How often it runs on the timer (ms); 0: never on the timer, only when asked for. */
  everyMs: number;
  /** Runs at each whole multiple of `everyMs` of the real clock (just after it), not `everyMs` after start. */
  aligned?: boolean;
  /** Runs on every process, not only the leader's (work about the process itself). */
  everyProcess?: boolean;
  /** Does what is due at the station's clock `now`. */
  step(now: number): Promise<T>;
}

export interface SchedulerOptions {
  /** The station's clock: the instant each run is for. */
  now(): number;
  /** Whether this process runs the jobs now (scale-out mode: the leader only). */
  isLeader(): boolean;
  /** Where a failed run is told. */
  logError(error: unknown, job: string): void;
}

export interface Scheduler {
  /**
   * Adds a job (before `start`); returns how to run it now at the station's clock, after any run of it going
   * on, with its step's result.
   */
  add<T>(job: Job<T>): () => Promise<T>;
  /** Starts each job's timer (once; a stopped scheduler does not start again). */
  start(): void;
  /** Stops the timers and waits for every run going on: before the database closes. */
  stop(): Promise<void>;
  /** Whether the timers are running. */
  readonly running: boolean;
}

interface JobState {
  job: Job<unknown>;
  /** The last run asked for (settled or not): the next one goes after it. */
  chain: Promise<unknown>;
  /** A run the timer started is queued or going on: the timer starts no other. */
  timerRun: boolean;
  timer: NodeJS.Timeout | null;
}

/** Sets `state.timer` to tick the job at each whole multiple of its period (1 ms after it). */
function alignedTimer(state: JobState, tick: (state: JobState) => void): void {
  const every = state.job.everyMs;
  state.timer = setTimeout(
    () => {
      alignedTimer(state, tick);
      tick(state);
    },
    every - (Date.now() % every) + 1,
  );
  state.timer.unref();
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const states: JobState[] = [];
  let started = false;
  let stopped = false;

  const runNow = <T>(state: JobState, step: (now: number) => Promise<T>): Promise<T> => {
    const next = state.chain.then(() => step(options.now()));
    state.chain = next.catch(() => undefined);
    return next;
  };

  const tick = (state: JobState) => {
    if (state.timerRun || (!state.job.everyProcess && !options.isLeader())) return;
    state.timerRun = true;
    runNow(state, (now) => state.job.step(now))
      .catch((error: unknown) => options.logError(error, state.job.name))
      .finally(() => {
        state.timerRun = false;
      });
  };

  return {
    add<T>(job: Job<T>) {
      if (started) throw new Error(`job ${job.name} added after the scheduler started`);
      const state: JobState = { job, chain: Promise.resolve(), timerRun: false, timer: null };
      states.push(state);
      return () => runNow(state, (now) => job.step(now));
    },
    start() {
      if (started || stopped) return;
      started = true;
      for (const state of states) {
        if (state.job.everyMs <= 0) continue;
        if (state.job.aligned) {
          alignedTimer(state, tick);
          continue;
        }
        state.timer = setInterval(() => tick(state), state.job.everyMs);
        state.timer.unref();
      }
    },
    async stop() {
      stopped = true;
      for (const state of states) {
        // clearTimeout and clearInterval clear either kind of Node timer.
        if (state.timer) clearTimeout(state.timer);
        state.timer = null;
      }
      await Promise.all(states.map((state) => state.chain));
    },
    get running() {
      return started && !stopped;
    },
  };
}
