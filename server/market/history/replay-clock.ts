/**
 * The replay's clock (MARKET_SOURCE=replay): the replayed instant runs REPLAY_SPEED times faster than the
 * wall clock from a stored origin, or stands still while the operator has paused it. Every station process
 * reads the same stored row (replay-state.ts), so they agree; between two reads a process may run ahead of
 * a pause it has not seen yet, and then waits for the paused time rather than going back: a clock never
 * runs backwards, whatever the row says.
 */
import type { Clock } from '../clock';

/** Where the replay stands: the replayed instant `marketMs` at wall instant `wallMs`, and how it moves on. */
export interface ReplayPoint {
  /** REPLAY_FROM the replay was started with. */
  from: string;
  speed: number;
  marketMs: number;
  wallMs: number;
  paused: boolean;
}

/** The replayed instant at wall instant `wall`. */
export function replayedAt(point: ReplayPoint, wall: number): number {
  if (point.paused) return point.marketMs;
  return point.marketMs + Math.max(0, wall - point.wallMs) * point.speed;
}

export class ReplayClock implements Clock {
  private last = -Infinity;

  constructor(
    /** The wall clock the replay runs against (the system clock, or a test's file clock). */
    readonly wall: Clock,
    private point: ReplayPoint,
  ) {}

  now(): number {
    const t = Math.floor(replayedAt(this.point, this.wall.now()));
    if (t > this.last) this.last = t;
    return this.last;
  }

  /** The stored row as last read. */
  get state(): ReplayPoint {
    return this.point;
  }

  /** Takes a newer reading of the stored row. */
  update(point: ReplayPoint): void {
    this.point = point;
  }
}
