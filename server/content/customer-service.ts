/** Online customer service: one thread per user with the back office (the operator command line answers). */
import { SERVICE_MESSAGE_MAX } from '../../src/shared/content';
import type { ServiceMessage } from '../../src/shared/api/types';
import { AppError, databaseRateLimiter, type Station } from '../platform';
import { audit } from '../ledger';

/** spec: "contact online customer service": at most this many messages from a user per hour. */
export const SERVICE_MESSAGES_PER_HOUR = 30;
const HOUR_MS = 3_600_000;
const THREAD_LIMIT = 200;

type ServiceRow = {
  id: number;
  sender: 'user' | 'staff';
  content: string;
  created_at: number;
  read_at: number | null;
};

export function serviceView(row: ServiceRow): ServiceMessage {
  return {
    id: row.id,
    sender: row.sender,
    content: row.content,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}

/** The newest messages of a user's thread (after `afterId`), oldest first; the staff's become read. */
export async function serviceThread(
  station: Station,
  userId: number,
  afterId = 0,
): Promise<ServiceMessage[]> {
  const db = station.db;
  const rows = await db
    .selectFrom('service_messages')
    .select(['id', 'sender', 'content', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .where('id', '>', afterId)
    .orderBy('id', 'desc')
    .limit(THREAD_LIMIT)
    .execute();
  const unread = rows.filter((r) => r.sender === 'staff' && r.read_at === null).map((r) => r.id);
  if (unread.length > 0) {
    await db
      .updateTable('service_messages')
      .set({ read_at: station.clock.now() })
      .where('id', 'in', unread)
      .execute();
  }
  return rows.reverse().map(serviceView);
}

/** A user writes to customer service: 1 to 1000 characters, at most 30 an hour. */
export async function sendServiceMessage(
  station: Station,
  userId: number,
  raw: string,
): Promise<ServiceMessage> {
  const content = raw.trim();
  if (content === '') throw new AppError('VALIDATION', { fields: { content: 'required' } });
  if (content.length > SERVICE_MESSAGE_MAX)
    throw new AppError('VALIDATION', { fields: { content: 'invalid' } });
  const now = station.clock.now();
  const db = station.db;
  const limiter = station.rateLimiter ?? databaseRateLimiter;
  const limit = { kind: 'count', key: `service:${userId}`, period: Math.floor(now / HOUR_MS) } as const;
  const taken = await limiter.take(db, [{ ...limit, limit: SERVICE_MESSAGES_PER_HOUR }]);
  if (taken.refused !== null) throw new AppError('RATE_LIMITED');
  const row = await db
    .insertInto('service_messages')
    .values({ user_id: userId, sender: 'user', staff_name: null, content, created_at: now, read_at: null })
    .returning(['id', 'sender', 'content', 'created_at', 'read_at'])
    .executeTakeFirstOrThrow();
  return serviceView(row);
}

/** The back office answers a user (operator command line); the user's messages so far become read. */
export async function replyToService(
  station: Station,
  userId: number,
  raw: string,
  actor: string,
  reason: string,
): Promise<ServiceMessage> {
  const content = raw.trim();
  if (content === '' || content.length > SERVICE_MESSAGE_MAX)
    throw new AppError('VALIDATION', { fields: { content: content === '' ? 'required' : 'invalid' } });
  const db = station.db;
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND');
  const now = station.clock.now();
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('service_messages')
      .set({ read_at: now })
      .where('user_id', '=', userId)
      .where('sender', '=', 'user')
      .where('read_at', 'is', null)
      .execute();
    const row = await trx
      .insertInto('service_messages')
      .values({
        user_id: userId,
        sender: 'staff',
        staff_name: actor,
        content,
        created_at: now,
        read_at: null,
      })
      .returning(['id', 'sender', 'content', 'created_at', 'read_at'])
      .executeTakeFirstOrThrow();
    await audit(trx, {
      time: now,
      actor,
      action: 'service.reply',
      userId,
      reason,
      detail: { messageId: row.id, length: content.length },
    });
    return serviceView(row);
  });
}
