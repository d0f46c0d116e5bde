/** The station's sense of time. Everything that depends on "now" asks a Clock, so tests can pin it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
};

/** A clock that stands still until moved: for tests and replays. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start: number | Date | string) {
    this.current = new Date(start).getTime();
    if (!Number.isFinite(this.current)) throw new RangeError(`FixedClock: not a time: ${String(start)}`);
  }

  now(): number {
    return this.current;
  }

  set(time: number | Date | string): void {
    const ms = new Date(time).getTime();
    if (!Number.isFinite(ms)) throw new RangeError(`FixedClock: not a time: ${String(time)}`);
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
