/**
 * Group commit on SQLite (server/platform/db/group-commit.ts), whose calls run their prepared queries
 * straight on the group's connection: each call sees the calls before it, a failing call is rolled back alone
 * (also on a primary-key violation, reported as Kysely reports it), and nothing outside the group sees a
 * call's writes before the COMMIT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isUniqueViolation,
  migrateToLatest,
  openDatabase,
  type Database,
} from '../../server/platform/db/database';
import { transaction } from '../../server/platform/db/group-commit';
import { prepared } from '../../server/platform/db/prepared';

const insertKey = prepared<{ userId: number; requestId: string }>()((db, p) =>
  db.insertInto('idempotency_keys').values({
    user_id: p.userId,
    request_id: p.requestId,
    call: 'test',
    response: null,
    created_at: 0,
  }),
);

const keysOf = prepared<{ userId: number }>()((db, p) =>
  db
    .selectFrom('idempotency_keys')
    .select('request_id')
    .where('user_id', '=', p.userId)
    .orderBy('request_id'),
);

describe('group commit (SQLite)', () => {
  let dataDir: string;
  let database: Database;
  let userId: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-group-commit-'));
    database = openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, 'station.sqlite') });
    await migrateToLatest(database);
    const user = await database.db
      .insertInto('users')
      .values({
        phone: '13700000000',
        password_hash: 'x',
        invite_code: 'GROUPCMT',
        inviter_id: null,
        real_name: null,
        kyc_status: 'none',
        kyc_fail_reason: null,
        withdraw_password_hash: null,
        created_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = user.id;
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const keys = async () => (await keysOf.rows(database.db, { userId })).map((row) => row.request_id);

  it('lets each call see the ones before it and rolls back only the calls that fail', async () => {
    const [first, refused, duplicate, last] = await Promise.allSettled([
      transaction(database.db, async (trx) => {
        await insertKey.rows(trx, { userId, requestId: 'a' });
        return (await keysOf.rows(trx, { userId })).length;
      }),
      transaction(database.db, async (trx) => {
        await insertKey.rows(trx, { userId, requestId: 'b' });
        throw new Error('refused after writing');
      }),
      transaction(database.db, async (trx) => {
        await insertKey.rows(trx, { userId, requestId: 'x' });
        await insertKey.rows(trx, { userId, requestId: 'a' });
      }),
      transaction(database.db, async (trx) => {
        await insertKey.rows(trx, { userId, requestId: 'c' });
        return (await keysOf.rows(trx, { userId })).map((row) => row.request_id);
      }),
    ]);
    expect(first).toEqual({ status: 'fulfilled', value: 1 });
    expect(refused).toMatchObject({ status: 'rejected', reason: { message: 'refused after writing' } });
    expect(duplicate.status).toBe('rejected');
    expect(isUniqueViolation((duplicate as PromiseRejectedResult).reason)).toBe(true);
    expect(last).toEqual({ status: 'fulfilled', value: ['a', 'c'] });
    expect(await keys()).toEqual(['a', 'c']);
  });

  it('keeps a read outside the group from seeing a call’s writes before they are committed', async () => {
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const call = transaction(database.db, async (trx) => {
      await insertKey.rows(trx, { userId, requestId: 'd' });
      written();
      await gate;
      throw new Error('rolled back after the outside read was asked for');
    });
    await wrote;
    // Asked for while the group holds the connection with 'd' written but not committed.
    const outside = keys();
    release();
    await expect(call).rejects.toThrow('rolled back');
    expect(await outside).toEqual(['a', 'c']);
  });
});
