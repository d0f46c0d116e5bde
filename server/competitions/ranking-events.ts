/**
 * News of a new ranking inside one process: the ranking job (ranking.ts) tells of each snapshot it stores
 * with a new time or its freezing; the competition stream (routes/competition-stream.ts) hears it and, in
 * scale-out mode, passes it on to every process through the tick bus.
 */
import type { Station } from '../platform';

/** A stored ranking: which competition, when it was taken (the event's id), and whether it is final. */
export interface RankingEvent {
  competitionId: number;
  takenAt: number;
  frozen: boolean;
}

type Listener = (event: RankingEvent) => void;

/** Per station (a test builds several). */
const listeners = new WeakMap<Station, Set<Listener>>();

/** Listens to the rankings this process stores; returns the way to stop. */
export function onRankingStored(station: Station, listener: Listener): () => void {
  let set = listeners.get(station);
  if (!set) {
    set = new Set();
    listeners.set(station, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function rankingStored(station: Station, event: RankingEvent): void {
  for (const listener of [...(listeners.get(station) ?? [])]) listener(event);
}

/** The event as sent on the bus and to clients: `{competitionId, takenAt, frozen}`. */
export function parseRankingEvent(text: string): RankingEvent | null {
  try {
    const value = JSON.parse(text) as Partial<RankingEvent> | null;
    if (
      typeof value?.competitionId !== 'number' ||
      typeof value.takenAt !== 'number' ||
      typeof value.frozen !== 'boolean'
    ) {
      return null;
    }
    return { competitionId: value.competitionId, takenAt: value.takenAt, frozen: value.frozen };
  } catch {
    return null;
  }
}
