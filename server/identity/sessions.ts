/** Sessions: opening one on login or registration, reading a token's live session, logging out. */
import { prepared, sessionCacheOf, type Station } from '../platform';
import { hashToken, newSessionToken } from './credentials';

/** Creates a session and returns its token (the only time the token exists in clear). */
export async function openSession(station: Station, userId: number): Promise<string> {
  const token = newSessionToken();
  const now = station.clock.now();
  await station.db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: now + station.config.settings.sessionTtlDays * 86_400_000,
      revoked_at: null,
    })
    .execute();
  return token;
}

const selectSession = prepared<{ tokenHash: string }>()((db, p) =>
  db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', p.tokenHash),
);

export interface SessionInfo {
  sessionId: number;
  userId: number;
}

/** The live session of a token, or null (unknown, revoked or expired). */
export async function sessionOf(station: Station, token: string): Promise<SessionInfo | null> {
  const tokenHash = hashToken(token);
  const cache = sessionCacheOf(station);
  const cached = cache?.get(tokenHash);
  if (cached) {
    if (cached.expiresAt > station.clock.now()) return { sessionId: cached.sessionId, userId: cached.userId };
    cache!.drop(tokenHash);
    return null;
  }
  const generation = cache?.generation() ?? 0;
  const [row] = await selectSession.rows(station.db, { tokenHash });
  if (!row || row.revoked_at !== null || row.expires_at <= station.clock.now()) return null;
  cache?.remember(
    tokenHash,
    { sessionId: row.id, userId: row.user_id, expiresAt: row.expires_at },
    generation,
  );
  return { sessionId: row.id, userId: row.user_id };
}

export async function logout(station: Station, token: string): Promise<void> {
  const tokenHash = hashToken(token);
  try {
    await station.db
      .updateTable('sessions')
      .set({ revoked_at: station.clock.now() })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  } finally {
    sessionCacheOf(station)?.forgetToken(tokenHash);
  }
}
