/**
 * A competition's ranking, live: `GET /api/stream/competition?id=` server-sent events.
 * - `ranking`, whose id is the snapshot's takenAt and whose data is `{competitionId, takenAt, frozen}`, each
 *   time the ranking job stores a snapshot taken at a new instant (about once a second while the competition
 *   runs) and once when it is frozen; a client then reads the page it shows (leaderboard.do) and its own
 *   standing (mine.do). Just the news, not a page: every viewer shows a page of its own and its own
 *   standing, and those reads are served from the stored snapshot (ranking.ts), so one small event fans out
 *   to any number of clients and no client is sent rows it does not show.
 * - On connect, the latest snapshot's event at once (unless `Last-Event-ID` names it): a client that
 *   reconnects after missing news catches up. After the frozen event the stream ends: nothing will change.
 * - A comment line (`: heartbeat`) every 15 seconds, and the quote stream's limits (config.stream):
 *   STREAMS_PER_IP open competition streams per address and process (RATE_LIMITED beyond), and a client
 *   whose unread bytes pass STREAM_BUFFER_KB is dropped.
 * Scale-out mode (`app.tickBus`): the ranking job runs on the leader only; its process publishes each event
 * on the bus, and every process (the leader too) writes it to its own clients and drops its copy of the
 * older snapshot (ranking.ts snapshotStoredElsewhere).
 */
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import { AppError, fields, openEventStream } from '../../platform';
import { competitionRow } from '../competitions';
import { currentSnapshot, snapshotStoredElsewhere } from '../ranking';
import { onRankingStored, parseRankingEvent, type RankingEvent } from '../ranking-events';
import { competitionIdField } from './competition-fields';

/** As the quote stream's (server/market/routes/stream-subscribers.ts): proxies and clients time out later. */
const HEARTBEAT_MS = 15_000;
const BUS_TOPIC = 'competition-ranking';

interface Watcher {
  competitionId: number;
  res: ServerResponse;
  address: string;
  /** The takenAt of the last event written (resume: the Last-Event-ID). */
  lastTakenAt: number | null;
}

function eventText(event: RankingEvent): string {
  return `id: ${event.takenAt}\nevent: ranking\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The open competition streams of this process, by competition, and what each address holds. */
function createWatchers(maxBufferedBytes: number) {
  const byCompetition = new Map<number, Set<Watcher>>();
  const perAddress = new Map<string, number>();
  let heartbeat: NodeJS.Timeout | null = null;

  function remove(watcher: Watcher) {
    const set = byCompetition.get(watcher.competitionId);
    if (!set?.delete(watcher)) return;
    if (set.size === 0) byCompetition.delete(watcher.competitionId);
    const left = (perAddress.get(watcher.address) ?? 1) - 1;
    if (left > 0) perAddress.set(watcher.address, left);
    else perAddress.delete(watcher.address);
    if (byCompetition.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  /** Backpressure as on the quote stream: a client that stopped reading is dropped, not buffered. */
  function write(watcher: Watcher, text: string) {
    if (watcher.res.writableLength > maxBufferedBytes) {
      remove(watcher);
      watcher.res.destroy();
      return;
    }
    watcher.res.write(text);
  }

  /** Writes the event unless the client has it (a running ranking is never taken at its end instant). */
  function send(watcher: Watcher, event: RankingEvent, text = eventText(event)) {
    if (watcher.lastTakenAt !== event.takenAt) {
      watcher.lastTakenAt = event.takenAt;
      write(watcher, text);
    }
    if (event.frozen) {
      remove(watcher);
      watcher.res.end();
    }
  }

  return {
    send,
    /** Writes the event to every client of its competition (serialised once). */
    deliver(event: RankingEvent) {
      const set = byCompetition.get(event.competitionId);
      if (!set) return;
      const text = eventText(event);
      for (const watcher of [...set]) send(watcher, event, text);
    },
    add(watcher: Watcher) {
      let set = byCompetition.get(watcher.competitionId);
      if (!set) {
        set = new Set();
        byCompetition.set(watcher.competitionId, set);
      }
      set.add(watcher);
      perAddress.set(watcher.address, (perAddress.get(watcher.address) ?? 0) + 1);
      heartbeat ??= setInterval(() => {
        for (const s of byCompetition.values()) for (const w of [...s]) write(w, ': heartbeat\n\n');
      }, HEARTBEAT_MS);
    },
    remove,
    openFrom: (address: string) => perAddress.get(address) ?? 0,
    endAll() {
      for (const set of [...byCompetition.values()]) {
        for (const watcher of [...set]) {
          remove(watcher);
          watcher.res.end();
        }
      }
    },
  };
}

export const competitionStreamPlugin: FastifyPluginAsync = async (app) => {
  const { station, tickBus } = app;
  const limits = app.config.stream;
  const watchers = createWatchers(limits.maxBufferedBytes);
  const deliver = (event: RankingEvent) => {
    snapshotStoredElsewhere(station, event);
    watchers.deliver(event);
  };
  let stopListening: () => void;
  if (tickBus) {
    await tickBus.onEvent(BUS_TOPIC, (text) => {
      const event = parseRankingEvent(text);
      if (event) deliver(event);
    });
    // Only the leader ranks: what it stores, every process hears through the bus (this one too).
    stopListening = onRankingStored(station, (event) => {
      tickBus.publishEvent(BUS_TOPIC, JSON.stringify(event)).catch((error: unknown) => {
        app.log.error({ err: error }, 'competition ranking event not published');
      });
    });
  } else {
    stopListening = onRankingStored(station, deliver);
  }
  // preClose, not onClose: a stream stays open until it is ended (as the quote stream's).
  app.addHook('preClose', async () => {
    stopListening();
    watchers.endAll();
  });

  app.get<{ Querystring: { id: number } }>(
    '/api/stream/competition',
    {
      schema: {
        tags: ['competition'],
        summary:
          'Server-sent events: `ranking` {competitionId, takenAt, frozen} (id: takenAt) each time the ' +
          'competition’s ranking is stored anew, the latest at once; read leaderboard.do and mine.do on it. ' +
          'Ends after the frozen one; heartbeat',
        querystring: fields({ id: competitionIdField }, ['id']),
        headers: {
          type: 'object',
          properties: { 'last-event-id': { type: 'string', pattern: '^[0-9]{1,15}$' } },
        },
      },
    },
    async (request, reply) => {
      if (watchers.openFrom(request.ip) >= limits.perAddress) {
        throw new AppError('RATE_LIMITED', { msgKey: 'TOO_MANY_STREAMS' });
      }
      const competitionId = request.query.id;
      await competitionRow(station.db, competitionId);
      const snapshot = await currentSnapshot(station, competitionId);

      const res = openEventStream(reply);
      const lastEventId = request.headers['last-event-id'];
      const watcher: Watcher = {
        competitionId,
        res,
        address: request.ip,
        lastTakenAt: typeof lastEventId === 'string' ? Number(lastEventId) : null,
      };
      const live = request.raw.socket instanceof Socket;
      if (live) {
        watchers.add(watcher);
        res.on('close', () => watchers.remove(watcher));
      }
      if (snapshot) {
        watchers.send(watcher, { competitionId, takenAt: snapshot.takenAt, frozen: snapshot.frozen });
      }
      // An in-process request (app.inject) has no connection to hold open: it gets the latest news only.
      if (!live && !res.writableEnded) res.end();
    },
  );
};
