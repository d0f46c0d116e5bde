/**
 * Idempotency of money calls (API.md): the first successful answer to a (user, requestId) is stored in the
 * same transaction as the mutation; a repeat gets that answer and changes nothing. Two concurrent identical
 * requests cannot both take effect: the key's primary key makes the second one's transaction fail and roll
 * back (SQLite runs one transaction at a time; PostgreSQL makes the second wait on the first's locks).
 */
import { AppError } from './errors';
import { transaction } from './db/group-commit';
import { prepared } from './db/prepared';
import type { Db, Tx } from './db/schema';

const selectKey = prepared<{ userId: number; requestId: string }>()((db, p) =>
  db
    .selectFrom('idempotency_keys')
    .select(['call', 'response'])
    .where('user_id', '=', p.userId)
    .where('request_id', '=', p.requestId),
);

const insertKey = prepared<{
  userId: number;
  requestId: string;
  call: string;
  response: string | null;
  now: number;
}>()((db, p) =>
  db.insertInto('idempotency_keys').values({
    user_id: p.userId,
    request_id: p.requestId,
    call: p.call,
    response: p.response,
    created_at: p.now,
  }),
);

/** The stored answer for this request, if it already ran; VALIDATION if the id was used for another call. */
export async function storedAnswer<T>(
  db: Db,
  userId: number,
  requestId: string,
  call: string,
): Promise<T | undefined> {
  const [row] = await selectKey.rows(db, { userId, requestId });
  if (!row) return undefined;
  if (row.call !== call || row.response === null) {
    throw new AppError('VALIDATION', { fields: { requestId: 'invalid' } });
  }
  return JSON.parse(row.response) as T;
}

/**
 * What became of a money call the client got no answer to: the call's name and its stored first answer,
 * or undefined when the station has no answer for (user, requestId), i.e. nothing was done (a refused call
 * rolls back and stores nothing; one not received yet may still come, and runs once).
 */
export async function requestOutcome(
  db: Db,
  userId: number,
  requestId: string,
): Promise<{ call: string; answer: unknown } | undefined> {
  const [row] = await selectKey.rows(db, { userId, requestId });
  if (!row || row.response === null) return undefined;
  return { call: row.call, answer: JSON.parse(row.response) as unknown };
}

/**
 * Runs `mutate` once per (user, requestId) in one transaction with the key; repeats get the first answer.
 * The key is written last, with the answer (one statement instead of an insert and an update): a concurrent
 * repeat runs its own transaction and then fails on the key's primary key, or on the state the first one left
 * (ALREADY_DONE, INSUFFICIENT_FUNDS…); either way it rolls back and answers the stored first answer. On SQLite
 * the transaction is a savepoint in a group commit (server/platform/db/group-commit.ts): the same, and answered once committed.
 */
export async function runOnce<T>(
  db: Db,
  key: { userId: number; requestId: string; call: string; now: number },
  mutate: (trx: Tx) => Promise<T>,
): Promise<T> {
  // No read of the key first: every caller reads storedAnswer itself before its checks, or runs in answerOnce.
  try {
    return await transaction(db, async (trx) => {
      const answer = await mutate(trx);
      // The new key first: a spread followed by new keys is slow on this V8 (measured with npm run bench).
      await insertKey.rows(trx, { response: JSON.stringify(answer) ?? null, ...key });
      return answer;
    });
  } catch (error) {
    // Whatever failed, if the same request has meanwhile been answered, that answer is the answer.
    const first = await storedAnswer<T>(db, key.userId, key.requestId, key.call);
    if (first !== undefined) return first;
    throw error;
  }
}

/**
 * A money call that reads no key before it starts (the order path): `run` does the checks and the
 * runOnce; if anything in it fails and the request has been answered before (or meanwhile), the stored answer
 * is the answer, and a requestId of another call is VALIDATION, as storedAnswer first would have said.
 * A repeat thus redoes the checks and a transaction that rolls back on the key: one read less for every call,
 * paid by the rare repeat. Only for calls whose every effect is in runOnce's transaction.
 */
export async function answerOnce<T>(
  db: Db,
  key: { userId: number; requestId: string; call: string },
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const first = await storedAnswer<T>(db, key.userId, key.requestId, key.call);
    if (first !== undefined) return first;
    throw error;
  }
}
