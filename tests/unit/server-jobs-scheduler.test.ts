import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScheduler, type SchedulerOptions } from '../../server/jobs/scheduler';

/** A step whose runs the test finishes by hand, recording the instant each was for. */
function manualStep() {
  const instants: number[] = [];
  const finishers: (() => void)[] = [];
  return {
    instants,
    finishNext: () => finishers.shift()?.(),
    step: (now: number) =>
      new Promise<number>((resolve) => {
        instants.push(now);
        finishers.push(() => resolve(now));
      }),
  };
}

describe('the station scheduler', () => {
  let leader: boolean;
  let clock: number;
  let errors: { job: string; error: unknown }[];
  let options: SchedulerOptions;

  beforeEach(() => {
    vi.useFakeTimers();
    leader = true;
    clock = 1_000_000;
    errors = [];
    options = {
      now: () => clock,
      isLeader: () => leader,
      logError: (error, job) => errors.push({ job, error }),
    };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs each job on its own interval at the station clock, and a job of interval 0 only when asked', async () => {
    const scheduler = createScheduler(options);
    const fast: number[] = [];
    const slow: number[] = [];
    const never: number[] = [];
    scheduler.add({ name: 'fast', everyMs: 1000, step: async (now) => void fast.push(now) });
    scheduler.add({ name: 'slow', everyMs: 5000, step: async (now) => void slow.push(now) });
    const runNever = scheduler.add({ name: 'never', everyMs: 0, step: async (now) => void never.push(now) });
    scheduler.start();
    for (let i = 0; i < 5; i++) {
      clock += 60_000;
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(fast).toEqual([1_060_000, 1_120_000, 1_180_000, 1_240_000, 1_300_000]);
    expect(slow).toEqual([1_300_000]);
    expect(never).toEqual([]);
    await runNever();
    expect(never).toEqual([1_300_000]);
    await scheduler.stop();
  });

  it('runs nothing on the timer while the process is not the leader (scale-out mode)', async () => {
    const scheduler = createScheduler(options);
    const runs: number[] = [];
    const runByHand = scheduler.add({
      name: 'engine',
      everyMs: 1000,
      step: async (now) => void runs.push(now),
    });
    leader = false;
    scheduler.start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toEqual([]);
    // Asked for by hand (a test, an operator), a step runs whoever leads.
    await runByHand();
    expect(runs).toHaveLength(1);
    leader = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(2);
    await scheduler.stop();
  });

  it('starts no second run of a job while one is going; a run asked for by hand waits for it', async () => {
    const scheduler = createScheduler(options);
    const step = manualStep();
    const runByHand = scheduler.add({ name: 'engine', everyMs: 1000, step: step.step });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(step.instants).toHaveLength(1);
    // A long catch-up: ticks come and go, nothing is queued behind it.
    await vi.advanceTimersByTimeAsync(5000);
    expect(step.instants).toHaveLength(1);
    clock += 1;
    const byHand = runByHand();
    await vi.advanceTimersByTimeAsync(0);
    expect(step.instants).toHaveLength(1);
    step.finishNext();
    await vi.advanceTimersByTimeAsync(0);
    // The hand-run starts once the timer's run is over, at the clock of that moment.
    expect(step.instants).toEqual([1_000_000, 1_000_001]);
    step.finishNext();
    expect(await byHand).toBe(1_000_001);
    await scheduler.stop();
  });

  it('stops its timers and waits for the run going on before stop resolves', async () => {
    const scheduler = createScheduler(options);
    const step = manualStep();
    scheduler.add({ name: 'engine', everyMs: 1000, step: step.step });
    scheduler.start();
    expect(scheduler.running).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    step.finishNext();
    await stopping;
    expect(stopped).toBe(true);
    expect(scheduler.running).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(step.instants).toHaveLength(1);
    // A stopped scheduler does not start again (the station is closing).
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(step.instants).toHaveLength(1);
  });

  it('tells a failed run and runs the job again at the next tick', async () => {
    const scheduler = createScheduler(options);
    let calls = 0;
    scheduler.add({
      name: 'kyc-review',
      everyMs: 1000,
      step: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database busy');
        return calls;
      },
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toBe(2);
    expect(errors).toEqual([{ job: 'kyc-review', error: new Error('database busy') }]);
    await scheduler.stop();
  });

  it('refuses a job added once the timers run', () => {
    const scheduler = createScheduler(options);
    scheduler.start();
    expect(() => scheduler.add({ name: 'late', everyMs: 1000, step: async () => 0 })).toThrow(/late/);
  });

  it('runs a job of every process while not the leader, and an aligned job just after each whole period', async () => {
    vi.setSystemTime(10_400);
    leader = false;
    const scheduler = createScheduler(options);
    const own: number[] = [];
    const aligned: number[] = [];
    scheduler.add({
      name: 'own',
      everyMs: 1000,
      everyProcess: true,
      step: async () => void own.push(Date.now()),
    });
    scheduler.add({
      name: 'aligned',
      everyMs: 1000,
      aligned: true,
      step: async () => void aligned.push(Date.now()),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(own).toEqual([11_400, 12_400]);
    expect(aligned).toEqual([]);
    leader = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(aligned).toEqual([13_001, 14_001]);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(2000);
    expect(aligned).toEqual([13_001, 14_001]);
  });
});
