/**
 * The message stream's feed in this process: the open connections of logged-in users and one poll of the
 * message table a second that hands each new message to its user's connections.
 * - One query whatever the number of connections: the messages with an id past the feed's cursor, in id
 *   order. The station's writers (the engine on the leader, any process's user calls) need not know of the
 *   stream, and every process of a scale-out station serves its own clients from the shared database.
 * - PostgreSQL hands out ids when a transaction inserts, not when it commits, so a later id may be seen before
 *   an earlier one commits. The cursor therefore stops before the first missing id and waits for it for
 *   GAP_WAIT_MS (a rolled-back insert leaves a gap for ever); ids already sent past the gap are remembered so
 *   nothing is sent twice.
 * - A client that reconnects with Last-Event-ID (a message id) first gets its own messages after that id.
 */
import type { ServerResponse } from 'node:http';
import type { UserMessage } from '../../src/shared/api/types';
import type { Db, UserMessageRow } from '../platform';
import { toUserMessage, type MessageTexts } from './messages';

const POLL_MS = 1000;
const HEARTBEAT_MS = 15_000;
/** How long a missing id is waited for before the cursor passes it. */
export const GAP_WAIT_MS = 10_000;
/** At most this many messages are read per poll, and resent on a resume. */
const BATCH = 500;

export interface FeedClient {
  userId: number;
  locale: string;
  res: ServerResponse;
  address: string;
}

export interface MessageFeed {
  /** Sends the user's messages after `afterId` to the client, then holds it open for new ones. */
  add(client: FeedClient, afterId: number | null): Promise<void>;
  remove(client: FeedClient): void;
  openFrom(address: string): number;
  /** The user's open streams in this process. */
  openFor(userId: number): number;
  /** Polls now (the timer does it each second while a client is connected). */
  poll(): Promise<void>;
  endAll(): void;
}

/**
 * The messages committed since the last call, each once, in id order as far as the database allows (see the
 * file's note on gaps). The first call starts at the newest message.
 */
export function createMessageCursor(
  db: Db,
  now: () => number = Date.now,
): { next(): Promise<UserMessageRow[]> } {
  let cursor: number | null = null;
  /** Ids above the cursor already handed out (past a gap). */
  const sentAbove = new Set<number>();
  let gapSince: number | null = null;

  const maxId = async () => {
    const row = await db
      .selectFrom('user_messages')
      .select((eb) => eb.fn.max<number | null>('id').as('id'))
      .executeTakeFirstOrThrow();
    return row.id === null ? 0 : Number(row.id);
  };

  return {
    async next() {
      cursor ??= await maxId();
      const rows = await db
        .selectFrom('user_messages')
        .selectAll()
        .where('id', '>', cursor)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      const out: UserMessageRow[] = [];
      let expected = cursor + 1;
      let contiguous = true;
      for (const row of rows) {
        const id = Number(row.id);
        if (id !== expected) {
          if (contiguous) gapSince ??= now();
          contiguous = false;
        }
        if (contiguous) {
          if (!sentAbove.delete(id)) out.push(row);
          cursor = id;
          expected = id + 1;
        } else if (!sentAbove.has(id)) {
          out.push(row);
          sentAbove.add(id);
        }
      }
      if (contiguous) {
        gapSince = null;
      } else if (gapSince !== null && now() - gapSince > GAP_WAIT_MS) {
        // The missing id was rolled back: pass it, and the ids handed out after it.
        cursor = expected;
        while (sentAbove.delete(cursor + 1)) cursor++;
        gapSince = null;
      }
      return out;
    },
  };
}

export function createMessageFeed(
  db: Db,
  texts: MessageTexts,
  opts: { maxBufferedBytes: number; logError(error: unknown): void },
): MessageFeed {
  const clients = new Map<number, Set<FeedClient>>();
  const perAddress = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;

  const write = (client: FeedClient, text: string) => {
    // Backpressure as on the quote stream: a client that stopped reading is dropped, and resumes by id.
    if (client.res.writableLength > opts.maxBufferedBytes) {
      remove(client);
      client.res.destroy();
      return;
    }
    client.res.write(text);
  };
  const eventOf = (message: UserMessage) =>
    `id: ${message.id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;

  const deliver = (row: UserMessageRow) => {
    const own = clients.get(Number(row.user_id));
    if (!own) return;
    const byLocale = new Map<string, string>();
    for (const client of own) {
      let text = byLocale.get(client.locale);
      if (text === undefined) {
        text = eventOf(toUserMessage(row, texts, client.locale));
        byLocale.set(client.locale, text);
      }
      write(client, text);
    }
  };

  const cursor = createMessageCursor(db);
  async function pollOnce(): Promise<void> {
    for (const row of await cursor.next()) deliver(row);
  }

  const poll = () => {
    polling ??= pollOnce()
      .catch((error: unknown) => opts.logError(error))
      .finally(() => {
        polling = null;
      });
    return polling;
  };

  const schedule = () => {
    if (timer || clients.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void poll().then(schedule);
    }, POLL_MS);
  };

  function remove(client: FeedClient) {
    const own = clients.get(client.userId);
    if (!own?.delete(client)) return;
    if (own.size === 0) clients.delete(client.userId);
    const left = (perAddress.get(client.address) ?? 1) - 1;
    if (left > 0) perAddress.set(client.address, left);
    else perAddress.delete(client.address);
    if (clients.size === 0) {
      if (timer) clearTimeout(timer);
      if (heartbeat) clearInterval(heartbeat);
      timer = null;
      heartbeat = null;
    }
  }

  return {
    async add(client, afterId) {
      // Join the feed first, then catch up: a message in between may come twice, never not at all; the
      // client drops an id it has (EventSource ids are the message ids).
      await poll();
      if (afterId !== null) {
        const missed = await db
          .selectFrom('user_messages')
          .selectAll()
          .where('user_id', '=', client.userId)
          .where('id', '>', afterId)
          .orderBy('id')
          .limit(BATCH)
          .execute();
        for (const row of missed) write(client, eventOf(toUserMessage(row, texts, client.locale)));
      }
      const own = clients.get(client.userId) ?? new Set<FeedClient>();
      own.add(client);
      clients.set(client.userId, own);
      perAddress.set(client.address, (perAddress.get(client.address) ?? 0) + 1);
      heartbeat ??= setInterval(() => {
        for (const set of clients.values()) for (const c of [...set]) write(c, ': heartbeat\n\n');
      }, HEARTBEAT_MS);
      schedule();
    },
    remove,
    openFrom: (address) => perAddress.get(address) ?? 0,
    openFor: (userId) => clients.get(userId)?.size ?? 0,
    poll,
    endAll() {
      for (const set of [...clients.values()]) {
        for (const client of [...set]) {
          remove(client);
          client.res.end();
        }
      }
    },
  };
}
