/**
 * What KYC photos may cost the station, over HTTP on SQLite and PostgreSQL: UPLOADS_PER_DAY a user in 24
 * hours (parallel uploads included), UPLOAD_PENDING_MB of photos in no submission, and the sweep that
 * deletes photos left out of every submission for UPLOAD_ORPHAN_HOURS, file and record, and files no record
 * names once they are as old; submitted photos stay. UPLOAD_ORPHAN_HOURS below 24 is refused at start: the
 * daily count reads the records the sweep deletes. Photos are streamed to disk: one of unannounced size past 10 MB is refused as it arrives, and the
 * connection ends with the answer, so the next upload is served.
 */
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../../server/market/clock';
import { loadConfig } from '../../server/config';
import { sweepOrphanUploads } from '../../server/identity';
import { idCardCheckChar } from '../../src/shared/validation';
import {
  api,
  data,
  dbTargets,
  failure,
  register,
  startStation,
  type ApiClient,
  type ApiResponse,
  type TestStation,
} from './helpers/station';

const HOUR = 3_600_000;
/** A PNG of `size` bytes (its signature, then filler). */
const png = (size: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 7)]);

type Upload = { id: number; mime: string; size: number };

async function upload(client: ApiClient, bytes: Buffer): Promise<ApiResponse<Upload>> {
  const res = await client.raw('/user/kyc/upload.do', {
    method: 'POST',
    headers: { 'content-type': 'image/png', 'accept-language': 'en' },
    body: bytes,
  });
  return { http: res.status, body: (await res.json()) as ApiResponse<Upload>['body'], headers: res.headers };
}

describe.each(dbTargets)('KYC photo quotas and the orphan sweep (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let uploadsDir: string;
  const files = () => readdirSync(uploadsDir);

  beforeAll(async () => {
    station = await startStation({
      db,
      env: { UPLOADS_PER_DAY: '3', UPLOAD_PENDING_MB: '1', UPLOAD_ORPHAN_HOURS: '24' },
    });
    client = api(station.url);
    uploadsDir = path.join(station.config.dataDir, 'uploads');
  });
  afterAll(async () => station?.close());

  it('takes UPLOADS_PER_DAY photos in 24 hours, also when twenty come at once', async () => {
    const user = await register(client);
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(user.client, png(1000))));
    expect(answers.filter((a) => a.http === 200)).toHaveLength(3);
    const refused = answers.find((a) => a.http !== 200)!;
    expect(refused.http).toBe(429);
    expect(failure(refused)).toMatchObject({
      code: 'RATE_LIMITED',
      msg: 'You have uploaded 3 photos in the last 24 hours, the most allowed; please try again tomorrow',
    });
    // A file for each accepted photo, none for a refused one.
    const mine = answers.filter((a) => a.http === 200).map((a) => data(a).id);
    expect(mine).toHaveLength(3);
    station.clock.advance(24 * HOUR + 1);
    expect((await upload(user.client, png(1000))).http).toBe(200);
  });

  it('holds at most UPLOAD_PENDING_MB of photos in no submission; submitting them makes room', async () => {
    const user = await register(client);
    const front = data(await upload(user.client, png(400_000)));
    const back = data(await upload(user.client, png(400_000)));
    const third = await upload(user.client, png(400_000));
    expect(failure(third)).toMatchObject({
      code: 'RATE_LIMITED',
      msg: 'Too many photos are waiting to be submitted; submit your verification, or wait a day for unused photos to be cleared',
    });
    const stem = '11010519800101012';
    data(
      await user.client.post('/user/auth.do', {
        realName: '张三',
        idNumber: stem + idCardCheckChar(stem),
        frontImage: front.id,
        backImage: back.id,
      }),
    );
    expect((await upload(user.client, png(400_000))).http).toBe(200);
  });

  it('streams a photo of unannounced size to disk and refuses it past 10 MB, keeping nothing', async () => {
    const user = await register(client);
    const before = files().length;
    // Chunked, with no Content-Length: the size shows only as the bytes arrive.
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(png(1024));
        for (let i = 0; i < 11; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await user.client.raw('/user/kyc/upload.do', {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(files().length).toBe(before);
    expect(files().some((f) => f.endsWith('.part'))).toBe(false);
  });

  it('sweeps photos left out of every submission once they are UPLOAD_ORPHAN_HOURS old, not the submitted ones', async () => {
    const user = await register(client);
    const front = data(await upload(user.client, png(500)));
    const back = data(await upload(user.client, png(500)));
    const stray = data(await upload(user.client, png(500)));
    const stem = '11010519800101023';
    data(
      await user.client.post('/user/auth.do', {
        realName: '李四',
        idNumber: stem + idCardCheckChar(stem),
        frontImage: front.id,
        backImage: back.id,
      }),
    );
    const sweep = () => sweepOrphanUploads(station.app.station, station.clock.now());
    const image = async (id: number) => (await user.client.raw(`/user/kyc/image.do?id=${id}`)).status;

    // Younger than a day: kept.
    station.clock.advance(23 * HOUR);
    await sweep();
    expect(await image(stray.id)).toBe(200);
    const before = files().length;

    station.clock.advance(HOUR + 1);
    const deleted = await sweep();
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await image(stray.id)).toBe(404);
    expect(await image(front.id)).toBe(200);
    expect(await image(back.id)).toBe(200);
    expect(files().length).toBe(before - deleted);
    // Swept twice, nothing more goes.
    expect(await sweep()).toBe(0);
  });

  it('sweeps files no record names once UPLOAD_ORPHAN_HOURS old by their last write, a leftover .part included', async () => {
    const user = await register(client);
    const photo = data(await upload(user.client, png(500)));
    const { file_name: photoFile } = await station.app.db
      .selectFrom('uploads')
      .select('file_name')
      .where('id', '=', photo.id)
      .executeTakeFirstOrThrow();
    // What an upload interrupted between its file and its record, or a crash mid-write, leaves behind. File
    // ages are the file system's (the station's clock is pinned here): a day and an hour ago by the wall clock.
    const stray = '0123456789abcdef0123456789abcdef';
    const part = 'fedcba9876543210fedcba9876543210.part';
    const fresh = '00112233445566778899aabbccddeeff';
    for (const name of [stray, part, fresh]) writeFileSync(path.join(uploadsDir, name), png(500));
    const dayAndHourAgo = new Date(Date.now() - 25 * HOUR);
    for (const name of [stray, part, photoFile]) {
      utimesSync(path.join(uploadsDir, name), dayAndHourAgo, dayAndHourAgo);
    }

    expect(await sweepOrphanUploads(station.app.station, station.clock.now())).toBeGreaterThanOrEqual(2);
    const left = files();
    expect(left).not.toContain(stray);
    expect(left).not.toContain(part);
    // A file written just now is kept (it may be an upload in flight), and so is an old one with a record.
    expect(left).toContain(fresh);
    expect(left).toContain(photoFile);
    expect((await user.client.raw(`/user/kyc/image.do?id=${photo.id}`)).status).toBe(200);
  });
});

describe('UPLOAD_ORPHAN_HOURS', () => {
  it('is refused below 24 at start, as the daily upload count reads the photos the sweep deletes', () => {
    const env = { DATA_DIR: path.join(tmpdir(), 'paperdesk-unused'), CLOCK_MODE: 'always-open' };
    expect(() => loadConfig({ ...env, UPLOAD_ORPHAN_HOURS: '23' })).toThrow(
      'UPLOAD_ORPHAN_HOURS must be at least 24: photos are counted against UPLOADS_PER_DAY for 24 hours, so the sweep may not delete them sooner; got "23"',
    );
    expect(loadConfig({ ...env, UPLOAD_ORPHAN_HOURS: '24' }).identity.uploadOrphanHours).toBe(24);
  });
});
