/**
 * Idempotency of money calls (API.md): the first successful answer to a (user, requestId) is stored in the
 * same transaction as the mutation; a repeat gets that answer and changes nothing. Two concurrent identical
 * requests cannot both take effect: the key's primary key makes the second one's transaction fail and roll
 * back (SQLite runs one transaction at a time; PostgreSQL makes the second wait on the first's locks).
 */
import { AppError } from '../errors';
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

/**
 * Runs `mutate` once per (user, requestId) in one transaction with the key; repeats get the first answer.
 * The key is written last, with the answer (one statement instead of an insert and an update): a concurrent
 * repeat runs its own transaction and then fails on the key's primary key, or on the state the first one left
 * (ALREADY_DONE, INSUFFICIENT_FUNDS…); either way it rolls back and answers the stored first answer.
 */
export async function runOnce<T>(
  db: Db,
  key: { userId: number; requestId: string; call: string; now: number },
  mutate: (trx: Tx) => Promise<T>,
): Promise<T> {
  // No read of the key first: every caller reads storedAnswer itself before its checks.
  try {
    return await db.transaction().execute(async (trx) => {
      const answer = await mutate(trx);
      await trx
        .insertInto('idempotency_keys')
        .values({
          user_id: key.userId,
          request_id: key.requestId,
          call: key.call,
          response: JSON.stringify(answer),
          created_at: key.now,
        })
        .execute();
      return answer;
    });
  } catch (error) {
    // Whatever failed, if the same request has meanwhile been answered, that answer is the answer.
    const first = await storedAnswer<T>(db, key.userId, key.requestId, key.call);
    if (first !== undefined) return first;
    throw error;
  }
}
