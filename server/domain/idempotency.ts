/**
 * Idempotency of money calls (API.md): the first successful answer to a (user, requestId) is stored in the
 * same transaction as the mutation; a repeat gets that answer and changes nothing. Two concurrent identical
 * requests cannot both run: the key's primary key makes the second insert fail (PostgreSQL makes it wait
 * for the first to commit; SQLite runs one transaction at a time).
 */
import { AppError } from '../errors';
import { isUniqueViolation } from '../db/database';
import type { Db, Tx } from '../db/schema';

/** The stored answer for this request, if it already ran; VALIDATION if the id was used for another call. */
export async function storedAnswer<T>(
  db: Db,
  userId: number,
  requestId: string,
  call: string,
): Promise<T | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['call', 'response'])
    .where('user_id', '=', userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.call !== call || row.response === null) {
    throw new AppError('VALIDATION', { fields: { requestId: 'invalid' } });
  }
  return JSON.parse(row.response) as T;
}

/** Runs `mutate` once per (user, requestId) in one transaction with the key; repeats get the first answer. */
export async function runOnce<T>(
  db: Db,
  key: { userId: number; requestId: string; call: string; now: number },
  mutate: (trx: Tx) => Promise<T>,
): Promise<T> {
  // No read of the key first: a repeat fails to insert it and gets the stored answer below, and every
  // caller reads storedAnswer itself before its checks (a second read cost each order a query).
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('idempotency_keys')
        .values({
          user_id: key.userId,
          request_id: key.requestId,
          call: key.call,
          response: null,
          created_at: key.now,
        })
        .execute();
      const answer = await mutate(trx);
      await trx
        .updateTable('idempotency_keys')
        .set({ response: JSON.stringify(answer) })
        .where('user_id', '=', key.userId)
        .where('request_id', '=', key.requestId)
        .execute();
      return answer;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const first = await storedAnswer<T>(db, key.userId, key.requestId, key.call);
      if (first !== undefined) return first;
    }
    throw error;
  }
}
