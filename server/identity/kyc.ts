/**
 * KYC (DOMAIN.md "KYC, bank card, permissions"): photos judged by their bytes and stored with random
 * names (storage.ts: under DATA_DIR by default); a submission (real name, ID number, front and back photo)
 * puts the user under review; the rule reviewer decides after REVIEW_DELAY_S, driven by the station's
 * clock; the operator may decide instead. States: none → pending → passed | failed (with the reason) →
 * pending again on resubmit.
 */
import { randomBytes } from 'node:crypto';
import {
  checkChineseName,
  checkIdCard,
  ID_CARD_PATTERN,
  type ValidationKey,
} from '../../src/shared/validation';
import type { Readable } from 'node:stream';
import { AppError, TooLargeError, assertFields, uploadStorage, type Tx, type Station } from '../platform';
import { audit, postMessage } from '../ledger';
import { assertUploadQuota, oneUploadAtATime } from './upload-quota';

/** spec §5 and §9: photos of at most 10 MB. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** The image type of `bytes` by their magic numbers, whatever the name or the declared type say. */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  const at = (i: number) => bytes[i];
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => at(i) === b)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Stores a KYC photo of the user, streamed to storage under a random name as it arrives (never whole in
 * memory); VALIDATION `imageType` when its bytes are no JPEG, PNG or WebP, BODY_TOO_LARGE (413) past
 * MAX_IMAGE_BYTES. `declaredSize` (Content-Length) refuses an announced oversize before any byte is read.
 */
export async function storeUpload(
  station: Station,
  userId: number,
  body: Readable,
  declaredSize: number | null,
): Promise<{ id: number; mime: ImageType; size: number }> {
  const tooLarge = () => new AppError('VALIDATION', { msgKey: 'BODY_TOO_LARGE', httpStatus: 413 });
  if (declaredSize !== null && declaredSize > MAX_IMAGE_BYTES) throw tooLarge();
  // The quota check and the record are one step per user (upload-quota.ts).
  return oneUploadAtATime(userId, async () => {
    await assertUploadQuota(station, userId, declaredSize ?? 0);
    const storage = uploadStorage(station.config);
    const fileName = randomBytes(16).toString('hex');
    let stored: { size: number; head: Buffer };
    try {
      stored = await storage.putStream(fileName, body, MAX_IMAGE_BYTES);
    } catch (error) {
      if (error instanceof TooLargeError) throw tooLarge();
      throw error;
    }
    const mime = sniffImage(stored.head);
    try {
      if (!mime) throw new AppError('VALIDATION', { fields: { file: 'imageType' } });
      // Without a declared size, the quota is checked again now that the size is known.
      if (declaredSize === null) await assertUploadQuota(station, userId, stored.size);
    } catch (error) {
      await storage.remove(fileName);
      throw error;
    }
    const row = await station.db
      .insertInto('uploads')
      .values({
        user_id: userId,
        file_name: fileName,
        mime,
        size: stored.size,
        created_at: station.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, mime, size: stored.size };
  });
}

/** The bytes of an upload, for its owner only: anyone else gets NOT_FOUND, as for a missing one. */
export async function readUpload(
  station: Station,
  userId: number,
  uploadId: number,
): Promise<{ mime: string; bytes: Buffer }> {
  const row = await station.db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', uploadId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  try {
    return { mime: row.mime, bytes: await uploadStorage(station.config).get(row.file_name) };
  } catch (error) {
    // A photo of a superseded submission keeps its record, not its file (removeSupersededPhotos).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError('NOT_FOUND');
    throw error;
  }
}

export interface KycSubmission {
  realName: string;
  idNumber: string;
  frontImage: number;
  backImage: number;
}

/** Submits KYC (or resubmits after a failure); the user is under review until the reviewer decides. */
export async function submitKyc(station: Station, userId: number, input: KycSubmission): Promise<void> {
  const idNumber = input.idNumber.trim().toUpperCase();
  const realName = input.realName.trim();
  assertFields({
    realName: checkChineseName(realName),
    idNumber: ID_CARD_PATTERN.test(idNumber) ? null : 'idCardInvalid',
    backImage: input.frontImage === input.backImage ? 'invalid' : null,
  });
  const db = station.db;
  const photos = await db
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', 'in', [input.frontImage, input.backImage])
    .execute();
  // A photo of an earlier submission that the latest one did not name again has lost its file
  // (removeSupersededPhotos): it cannot be named again.
  const submitted = await db
    .selectFrom('kyc_submissions')
    .select(['front_upload_id', 'back_upload_id'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  const latest = new Set(submitted.slice(0, 1).flatMap((s) => [s.front_upload_id, s.back_upload_id]));
  const gone = new Set(
    submitted.flatMap((s) => [s.front_upload_id, s.back_upload_id]).filter((id) => !latest.has(id)),
  );
  const mine = new Set(photos.map((p) => p.id).filter((id) => !gone.has(id)));
  assertFields({
    frontImage: mine.has(input.frontImage) ? null : 'invalid',
    backImage: mine.has(input.backImage) ? null : 'invalid',
  });
  const now = station.clock.now();
  await db.transaction().execute(async (trx) => {
    // Only from none or failed; the conditional update makes two racing submissions one.
    const moved = await trx
      .updateTable('users')
      .set({ kyc_status: 'pending', kyc_fail_reason: null })
      .where('id', '=', userId)
      .where('kyc_status', 'in', ['none', 'failed'])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) {
      const user = await trx
        .selectFrom('users')
        .select('kyc_status')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      throw new AppError('ALREADY_DONE', {
        msgKey: user.kyc_status === 'passed' ? 'KYC_ALREADY_PASSED' : 'KYC_PENDING',
      });
    }
    await trx
      .insertInto('kyc_submissions')
      .values({
        user_id: userId,
        real_name: realName,
        id_number: idNumber,
        front_upload_id: input.frontImage,
        back_upload_id: input.backImage,
        status: 'pending',
        fail_reason: null,
        decided_by: null,
        submitted_at: now,
        decided_at: null,
      })
      .execute();
  });
  await removeSupersededPhotos(station, userId, [input.frontImage, input.backImage]);
}

/**
 * The files of the photos a new submission superseded: those of the user's earlier (failed) submissions
 * that the new one does not name again (a side kept as it was stays). Their records stay with the
 * submissions that name them, as the history of what was decided; only the bytes, a person's ID card, go.
 * Runs after the new submission is committed, and only one submission of a user can be pending or passed,
 * so no file a live submission names is removed.
 */
async function removeSupersededPhotos(station: Station, userId: number, current: number[]): Promise<void> {
  const earlier = await station.db
    .selectFrom('kyc_submissions')
    .select(['front_upload_id', 'back_upload_id'])
    .where('user_id', '=', userId)
    .where('status', '=', 'failed')
    .execute();
  const kept = new Set(current);
  const superseded = new Set(
    earlier.flatMap((s) => [s.front_upload_id, s.back_upload_id]).filter((id) => !kept.has(id)),
  );
  if (superseded.size === 0) return;
  const rows = await station.db
    .selectFrom('uploads')
    .select('file_name')
    .where('user_id', '=', userId)
    .where('id', 'in', [...superseded])
    .execute();
  const storage = uploadStorage(station.config);
  for (const row of rows) await storage.remove(row.file_name);
}

/** A reason the user reads: `@validation.key` / `@errors.KEY` are message keys translated on the way out. */
export type Decision = { pass: true } | { pass: false; reason: string };

/** The rule reviewer's judgement of a submission: the ID number's birth date and check character. */
async function ruleDecision(
  trx: Tx,
  submission: { user_id: number; id_number: string },
  now: number,
): Promise<Decision> {
  const key: ValidationKey | null = checkIdCard(submission.id_number, new Date(now));
  if (key) return { pass: false, reason: `@validation.${key}` };
  const taken = await trx
    .selectFrom('kyc_submissions')
    .select('id')
    .where('id_number', '=', submission.id_number)
    .where('status', '=', 'passed')
    .where('user_id', '!=', submission.user_id)
    .executeTakeFirst();
  if (taken) return { pass: false, reason: '@errors.KYC_ID_IN_USE' };
  return { pass: true };
}

async function applyDecision(
  trx: Tx,
  submission: { id: number; user_id: number; real_name: string },
  decision: Decision,
  by: string,
  now: number,
): Promise<boolean> {
  const done = await trx
    .updateTable('kyc_submissions')
    .set({
      status: decision.pass ? 'passed' : 'failed',
      fail_reason: decision.pass ? null : decision.reason,
      decided_by: by,
      decided_at: now,
    })
    .where('id', '=', submission.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable('users')
    .set(
      decision.pass
        ? { kyc_status: 'passed', kyc_fail_reason: null, real_name: submission.real_name }
        : { kyc_status: 'failed', kyc_fail_reason: decision.reason },
    )
    .where('id', '=', submission.user_id)
    .execute();
  // spec §7 "Cash": the user is told the result in their messages.
  await postMessage(trx, {
    userId: submission.user_id,
    kind: 'kyc',
    msgKey: decision.pass ? 'kycPassed' : 'kycFailed',
    params: decision.pass ? {} : { reason: decision.reason },
    refType: 'user',
    refId: submission.user_id,
    now,
  });
  return true;
}

/**
 * Decides every submission pending for at least REVIEW_DELAY_S at the station's `now`. Each decision is
 * a conditional update, so the background job, a test's trigger and the operator never decide twice.
 * Returns how many were decided.
 */
export async function runKycReviewer(station: Station, now = station.clock.now()): Promise<number> {
  const due = await station.db
    .selectFrom('kyc_submissions')
    .select(['id', 'user_id', 'real_name', 'id_number'])
    .where('status', '=', 'pending')
    .where('submitted_at', '<=', now - station.config.reviewDelaySeconds * 1000)
    .orderBy('id')
    .limit(500)
    .execute();
  let decided = 0;
  for (const submission of due) {
    const ok = await station.db
      .transaction()
      .execute(async (trx) =>
        applyDecision(trx, submission, await ruleDecision(trx, submission, now), 'reviewer', now),
      );
    if (ok) decided += 1;
  }
  return decided;
}

/** The operator decides the user's pending submission (audited). NOT_FOUND when nothing is pending. */
export async function decideKycByOperator(
  station: Station,
  userId: number,
  decision: Decision,
  actor: string,
  reason: string,
): Promise<void> {
  const now = station.clock.now();
  await station.db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom('kyc_submissions')
      .select(['id', 'user_id', 'real_name'])
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!pending || !(await applyDecision(trx, pending, decision, `operator:${actor}`, now))) {
      throw new AppError('NOT_FOUND');
    }
    await audit(trx, {
      time: now,
      actor,
      action: decision.pass ? 'kyc.pass' : 'kyc.fail',
      userId,
      reason,
      detail: { submissionId: pending.id },
    });
  });
}
