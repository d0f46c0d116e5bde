/**
 * The replay's stored clock row (migration 0019-replay): started when a station first runs a replay,
 * read by every process each second, paused and resumed by the operator. A station started with another
 * REPLAY_FROM or REPLAY_SPEED starts the replay afresh; then the engine's progress is moved to the new
 * start too, so it does not wait for a minute of the old replay (or of the simulation) to come round.
 */
import type { ReplaySettings } from '../../config';
import type { Db } from '../../platform';
import { replayedAt, type ReplayPoint } from './replay-clock';

const ROW = 'replay';
const ENGINE_PROGRESS = { kind: 'engine_progress', key: 'ticks' } as const;

/** The stored row, or null before any replay ran on this database. */
export async function readReplayPoint(db: Db): Promise<ReplayPoint | null> {
  const row = await db.selectFrom('replay_state').selectAll().where('name', '=', ROW).executeTakeFirst();
  if (!row) return null;
  return {
    from: row.replay_from,
    speed: Number(row.speed),
    marketMs: Number(row.market_ms),
    wallMs: Number(row.wall_ms),
    paused: Number(row.paused) === 1,
  };
}

/**
 * The replay this station runs: the stored one when it was started with the same REPLAY_FROM and
 * REPLAY_SPEED (a restart, or another process of the same station), else a new one from REPLAY_FROM now.
 */
export async function startReplay(db: Db, settings: ReplaySettings, wall: number): Promise<ReplayPoint> {
  const fresh: ReplayPoint = {
    from: settings.from,
    speed: settings.speed,
    marketMs: settings.startAt,
    wallMs: wall,
    paused: false,
  };
  await db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('replay_state').selectAll().where('name', '=', ROW).executeTakeFirst();
    if (row && row.replay_from === settings.from && Number(row.speed) === settings.speed) return;
    const values = {
      replay_from: fresh.from,
      speed: fresh.speed,
      market_ms: fresh.marketMs,
      wall_ms: fresh.wallMs,
      paused: 0,
      updated_at: wall,
    };
    // Two processes of a scaled-out station may start together: the first row written stands.
    if (row) await tx.updateTable('replay_state').set(values).where('name', '=', ROW).execute();
    else
      await tx
        .insertInto('replay_state')
        .values({ name: ROW, ...values })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    // The engine goes on from the replay's start: one minute before it, so the first minute is handled.
    await tx
      .updateTable('engine_runs')
      .set({ done_at: Math.floor(fresh.marketMs / 60_000) * 60_000 - 60_000 })
      .where('kind', '=', ENGINE_PROGRESS.kind)
      .where('key', '=', ENGINE_PROGRESS.key)
      .execute();
  });
  return (await readReplayPoint(db))!;
}

/** What a pause or resume did: the replayed instant it took effect at, and whether anything changed. */
export interface ReplayChange {
  point: ReplayPoint;
  changed: boolean;
}

/** Pauses (true) or resumes (false) the stored replay at wall instant `wall`; null when none is stored. */
export async function setReplayPaused(db: Db, paused: boolean, wall: number): Promise<ReplayChange | null> {
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('replay_state').selectAll().where('name', '=', ROW).executeTakeFirst();
    if (!row) return null;
    const point: ReplayPoint = {
      from: row.replay_from,
      speed: Number(row.speed),
      marketMs: Number(row.market_ms),
      wallMs: Number(row.wall_ms),
      paused: Number(row.paused) === 1,
    };
    if (point.paused === paused) return { point, changed: false };
    // Pausing fixes the instant reached; resuming runs on from the paused instant, from now.
    const next: ReplayPoint = {
      ...point,
      marketMs: Math.floor(replayedAt(point, wall)),
      wallMs: wall,
      paused,
    };
    await tx
      .updateTable('replay_state')
      .set({ market_ms: next.marketMs, wall_ms: next.wallMs, paused: paused ? 1 : 0, updated_at: wall })
      .where('name', '=', ROW)
      .execute();
    return { point: next, changed: true };
  });
}
