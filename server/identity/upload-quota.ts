/**
 * What KYC photos may cost the station: per user, UPLOADS_PER_DAY uploads in 24 hours and
 * UPLOAD_PENDING_MB of photos not yet in any submission; photos left out of every submission for
 * UPLOAD_ORPHAN_HOURS are deleted, file and record, by the `upload-sweep` job, and so are files no record
 * names (an upload interrupted between its file and its record, a `.part` left by a crash) once they are as
 * old. A submission only ever holds two photos, so with these a user cannot fill the disk however they call.
 * The daily count reads the records, which the sweep keeps at least 24 hours (config: UPLOAD_ORPHAN_HOURS).
 */
import type { ExpressionBuilder } from 'kysely';
import { AppError, uploadStorage, type DB, type Station } from '../platform';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Photos deleted per sweep at most (the rest at the next one). */
const SWEEP_BATCH = 200;

/** The photo (the `uploads` row of the query) is in no KYC submission, front or back. */
function inNoSubmission(eb: ExpressionBuilder<DB, 'uploads'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('kyc_submissions')
        .select('kyc_submissions.id')
        .where((s) =>
          s.or([
            s('kyc_submissions.front_upload_id', '=', s.ref('uploads.id')),
            s('kyc_submissions.back_upload_id', '=', s.ref('uploads.id')),
          ]),
        ),
    ),
  );
}

/** One upload per user at a time in this process: parallel uploads would all pass the quota check first. */
const uploadsInFlight = new Map<number, Promise<unknown>>();

export function oneUploadAtATime<T>(userId: number, work: () => Promise<T>): Promise<T> {
  const previous = uploadsInFlight.get(userId) ?? Promise.resolve();
  const next = previous.then(work);
  const tail = next.catch(() => undefined);
  uploadsInFlight.set(userId, tail);
  void tail.then(() => {
    if (uploadsInFlight.get(userId) === tail) uploadsInFlight.delete(userId);
  });
  return next;
}

/** RATE_LIMITED when the user has uploaded their day's photos, or holds too many not yet submitted. */
export async function assertUploadQuota(station: Station, userId: number, size: number): Promise<void> {
  const { uploadsPerDay, uploadPendingBytes } = station.config.identity;
  const now = station.clock.now();
  const today = await station.db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', now - DAY_MS)
    .executeTakeFirstOrThrow();
  if (Number(today.n) >= uploadsPerDay) {
    throw new AppError('RATE_LIMITED', { msgKey: 'UPLOAD_DAILY_LIMIT', params: { n: uploadsPerDay } });
  }
  const pending = await station.db
    .selectFrom('uploads')
    .select((eb) => eb.fn.sum<string | number | null>('size').as('bytes'))
    .where('user_id', '=', userId)
    .where(inNoSubmission)
    .executeTakeFirstOrThrow();
  if (Number(pending.bytes ?? 0) + size > uploadPendingBytes) {
    throw new AppError('RATE_LIMITED', { msgKey: 'UPLOAD_PENDING_FULL' });
  }
}

/**
 * Deletes photos in no submission older than UPLOAD_ORPHAN_HOURS at `now`, then files no record names
 * last written longer ago than that; how many files it deleted.
 */
export async function sweepOrphanUploads(station: Station, now: number): Promise<number> {
  const maxAgeMs = station.config.identity.uploadOrphanHours * HOUR_MS;
  return (await sweepOrphanRecords(station, now - maxAgeMs)) + (await sweepStrayFiles(station, maxAgeMs));
}

/** Photos (record and file) in no submission, created before `before`. */
async function sweepOrphanRecords(station: Station, before: number): Promise<number> {
  const orphans = await station.db
    .selectFrom('uploads')
    .select(['id', 'file_name'])
    .where('created_at', '<', before)
    .where(inNoSubmission)
    .orderBy('id')
    .limit(SWEEP_BATCH)
    .execute();
  const storage = uploadStorage(station.config);
  let deleted = 0;
  for (const orphan of orphans) {
    // The record first: a submission naming the photo from now on is refused as naming no photo; the file
    // goes once nothing can point at it.
    const gone = await station.db
      .deleteFrom('uploads')
      .where('id', '=', orphan.id)
      .where(inNoSubmission)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) continue;
    await storage.remove(orphan.file_name);
    deleted++;
  }
  return deleted;
}

/**
 * Files of the uploads folder that no record names, last written more than `maxAgeMs` ago. Their age is
 * the file system's, by the wall clock that wrote them, not the station's (which may be simulated): an
 * upload in flight, or between its file's rename and its record, was written moments ago and is kept.
 */
async function sweepStrayFiles(station: Station, maxAgeMs: number): Promise<number> {
  const storage = uploadStorage(station.config);
  const writtenBefore = Date.now() - maxAgeMs;
  const old = (await storage.list()).filter((f) => f.writtenAt < writtenBefore).map((f) => f.name);
  let deleted = 0;
  // Submitted photos are old files with records too: looked up a batch at a time, however many there are.
  for (let from = 0; from < old.length && deleted < SWEEP_BATCH; from += SWEEP_BATCH) {
    const batch = old.slice(from, from + SWEEP_BATCH);
    const recorded = await station.db
      .selectFrom('uploads')
      .select('file_name')
      .where('file_name', 'in', batch)
      .execute();
    const named = new Set(recorded.map((r) => r.file_name));
    for (const name of batch) {
      if (named.has(name) || deleted >= SWEEP_BATCH) continue;
      await storage.remove(name);
      deleted++;
    }
  }
  return deleted;
}
