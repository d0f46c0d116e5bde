import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position, User } from '../../src/shared/api/types';
import { idCardCheckChar } from '../../src/shared/validation';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 3)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([64, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(56),
]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64)]);

/** A valid 18-digit ID number with the given 17-digit stem. */
const idNumber = (first17: string) => first17 + idCardCheckChar(first17);
let idCounter = 0;
const freshId = () =>
  idNumber(
    `1101051980${String(101 + (idCounter++ % 800)).padStart(3, '0')}`.slice(0, 10) +
      `0101${String(idCounter).padStart(3, '0')}`,
  );

type Upload = { id: number; mime: string; size: number };

async function upload(client: ApiClient, bytes: Buffer, type = 'image/png'): Promise<ApiResponse<Upload>> {
  const res = await client.raw('/user/kyc/upload.do', {
    method: 'POST',
    headers: { 'content-type': type },
    body: bytes,
  });
  return { http: res.status, body: (await res.json()) as ApiResponse<Upload>['body'], headers: res.headers };
}

async function submit(user: Registered, id: string, realName = '张三'): Promise<ApiResponse<User>> {
  const front = data(await upload(user.client, PNG));
  const back = data(await upload(user.client, JPEG, 'image/jpeg'));
  return user.client.post<User>('/user/auth.do', {
    realName,
    idNumber: id,
    frontImage: front.id,
    backImage: back.id,
  });
}

describe.each(dbTargets)('KYC: photos, submission and the rule reviewer (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, env: { REVIEW_DELAY_S: '5', ORDERS_NEED_KYC: 'true' } });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('takes JPEG, PNG and WebP photos judged by their bytes, whatever the declared type', async () => {
    const me = await register(client);
    expect(data(await upload(me.client, PNG, 'image/jpeg'))).toMatchObject({
      mime: 'image/png',
      size: PNG.length,
    });
    expect(data(await upload(me.client, JPEG, 'application/octet-stream')).mime).toBe('image/jpeg');
    expect(data(await upload(me.client, WEBP, 'image/webp')).mime).toBe('image/webp');
    for (const [bytes, type] of [
      [GIF, 'image/png'],
      [Buffer.from('<script>alert(1)</script>'), 'image/jpeg'],
      [Buffer.alloc(0), 'image/png'],
    ] as const) {
      const refused = failure(await upload(me.client, bytes, type));
      expect(refused).toMatchObject({
        status: 400,
        code: 'VALIDATION',
        fields: { file: '请上传JPEG、PNG或WebP格式的图片' },
      });
    }
  });

  it('refuses a photo over 10 MB with a 413 envelope and stores nothing', async () => {
    const me = await register(client);
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(me.client, big);
    expect(res.http).toBe(413);
    expect(failure(res).code).toBe('VALIDATION');
    const rows = await station.app.station.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', me.user.id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(0);
  });

  it('stores photos under DATA_DIR with random names and serves them to their owner only', async () => {
    const me = await register(client);
    const other = await register(client);
    const stored = data(await upload(me.client, PNG));
    const files = readdirSync(path.join(station.config.dataDir, 'uploads'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(
      files.some((name) => readFileSync(path.join(station.config.dataDir, 'uploads', name)).equals(PNG)),
    ).toBe(true);

    const mine = await me.client.raw(`/user/kyc/image.do?id=${stored.id}`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/png');
    expect(mine.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await mine.arrayBuffer()).equals(PNG)).toBe(true);

    const theirs = failure(await other.client.get('/user/kyc/image.do', { id: stored.id }));
    expect(theirs).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(failure(await client.get('/user/kyc/image.do', { id: stored.id })).code).toBe('NOT_LOGGED_IN');
  });

  it('checks the name, the ID number shape and that both photos are the user’s own', async () => {
    const me = await register(client);
    const other = await register(client);
    const front = data(await upload(me.client, PNG));
    const foreign = data(await upload(other.client, PNG));
    const bad = failure(
      await me.client.post('/user/auth.do', {
        realName: 'Zhang San',
        idNumber: '12345',
        frontImage: front.id,
        backImage: foreign.id,
      }),
    );
    expect(bad).toMatchObject({
      code: 'VALIDATION',
      fields: { realName: '姓名只能是中文', idNumber: '请输入正确的身份证号' },
    });
    const notMine = failure(
      await me.client.post('/user/auth.do', {
        realName: '张三',
        idNumber: freshId(),
        frontImage: front.id,
        backImage: foreign.id,
      }),
    );
    expect(notMine.fields).toHaveProperty('backImage');
    expect(data(await me.client.get<User>('/user/getUserInfo.do')).kycStatus).toBe('none');
  });

  it('puts the user under review, refuses a second submission, and passes after REVIEW_DELAY_S', async () => {
    const me = await register(client);
    const id = freshId();
    expect(data(await submit(me, id)).kycStatus).toBe('pending');
    const again = failure(await submit(me, freshId()));
    expect(again).toMatchObject({ status: 409, code: 'ALREADY_DONE', msg: '实名认证审核中，请耐心等待' });

    station.clock.advance(4_000);
    await station.app.kycReviewer.run();
    expect(data(await me.client.get<User>('/user/getUserInfo.do')).kycStatus).toBe('pending');

    station.clock.advance(1_000);
    await station.app.kycReviewer.run();
    const passed = data(await me.client.get<User>('/user/getUserInfo.do'));
    expect(passed).toMatchObject({ kycStatus: 'passed', realName: '张三', kycFailReason: null });
    expect(failure(await submit(me, freshId())).msg).toBe('您已通过实名认证');
  });

  it('fails a wrong check digit with the reason in the user’s language, and passes a resubmission', async () => {
    const me = await register(client);
    const good = freshId();
    const wrongDigit = good.slice(0, 17) + (good[17] === '1' ? '2' : '1');
    data(await submit(me, wrongDigit));
    station.clock.advance(5_000);
    await station.app.kycReviewer.run();
    const failed = data(await me.client.get<User>('/user/getUserInfo.do'));
    expect(failed).toMatchObject({
      kycStatus: 'failed',
      kycFailReason: '身份证号校验位不正确',
      realName: null,
    });
    const en = data(await me.client.withLang('en').get<User>('/user/getUserInfo.do'));
    expect(en.kycFailReason).toBe('The check digit of the ID number is wrong');

    data(await submit(me, good, '李四'));
    station.clock.advance(5_000);
    await station.app.kycReviewer.run();
    expect(data(await me.client.get<User>('/user/getUserInfo.do'))).toMatchObject({
      kycStatus: 'passed',
      realName: '李四',
    });
  });

  it('deletes the files of photos a resubmission replaced, and keeps a side named again', async () => {
    const me = await register(client);
    const file = async (id: number) =>
      (await me.client.raw(`/user/kyc/image.do?id=${id}`)).status === 200 ? 'kept' : 'gone';
    const photo = async (bytes: Buffer, type: string) => data(await upload(me.client, bytes, type)).id;
    const decide = async () => {
      station.clock.advance(5_000);
      await station.app.kycReviewer.run();
    };
    const good = freshId();
    const wrongDigit = good.slice(0, 17) + (good[17] === '1' ? '2' : '1');
    const submitWith = (idNumber: string, frontImage: number, backImage: number) =>
      me.client.post<User>('/user/auth.do', { realName: '张三', idNumber, frontImage, backImage });

    const front1 = await photo(PNG, 'image/png');
    const back1 = await photo(JPEG, 'image/jpeg');
    data(await submitWith(wrongDigit, front1, back1));
    await decide();
    expect([await file(front1), await file(back1)]).toEqual(['kept', 'kept']);

    // A new front photo, the same back: the first front's file goes, the back's stays.
    const front2 = await photo(WEBP, 'image/webp');
    data(await submitWith(wrongDigit, front2, back1));
    expect([await file(front1), await file(front2), await file(back1)]).toEqual(['gone', 'kept', 'kept']);
    await decide();

    // A photo whose file is gone cannot be named again; both new photos replace both earlier ones.
    const back2 = await photo(PNG, 'image/png');
    expect(failure(await submitWith(good, front1, back2)).fields).toEqual({ frontImage: '格式不正确' });
    const front3 = await photo(JPEG, 'image/jpeg');
    data(await submitWith(good, front3, back2));
    expect(await Promise.all([front2, back1, front3, back2].map(file))).toEqual([
      'gone',
      'gone',
      'kept',
      'kept',
    ]);
    await decide();
    expect(data(await me.client.get<User>('/user/getUserInfo.do')).kycStatus).toBe('passed');
    // Exactly the files of the passed submission are left of this user's photos.
    const stored = readdirSync(path.join(station.config.dataDir, 'uploads'));
    const names = await station.app.station.db
      .selectFrom('uploads')
      .select(['id', 'file_name'])
      .where('id', 'in', [front1, back1, front2, front3, back2])
      .execute();
    expect(
      names
        .filter((n) => stored.includes(n.file_name))
        .map((n) => n.id)
        .sort(),
    ).toEqual([front3, back2].sort());
  });

  it('fails a birth date that does not exist, and an ID number verified for someone else', async () => {
    const a = await register(client);
    const b = await register(client);
    const c = await register(client);
    data(await submit(a, idNumber('11010519490230002')));
    const shared = freshId();
    data(await submit(b, shared));
    station.clock.advance(5_000);
    await station.app.kycReviewer.run();
    data(await submit(c, shared));
    station.clock.advance(5_000);
    await station.app.kycReviewer.run();
    expect(data(await a.client.get<User>('/user/getUserInfo.do')).kycFailReason).toBe(
      '身份证号中的出生日期不正确',
    );
    expect(data(await b.client.get<User>('/user/getUserInfo.do')).kycStatus).toBe('passed');
    expect(data(await c.client.get<User>('/user/getUserInfo.do'))).toMatchObject({
      kycStatus: 'failed',
      kycFailReason: '该身份证号已被其他账户认证',
    });
  });

  it('decides each submission once however many reviewer passes run at once', async () => {
    const me = await register(client);
    data(await submit(me, freshId()));
    station.clock.advance(5_000);
    const counts = await Promise.all(Array.from({ length: 5 }, () => station.app.kycReviewer.run()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('gates ordering on KYC when ORDERS_NEED_KYC is on', async () => {
    const me = await register(client);
    const order = () =>
      me.client.post<Position>('/user/buy.do', {
        code: '600519',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
    const refused = await order();
    expect(refused.http).toBe(403);
    expect(failure(refused)).toMatchObject({ code: 'KYC_REQUIRED', msg: '请先完成实名认证' });
    data(await submit(me, freshId()));
    expect(failure(await order()).code).toBe('KYC_REQUIRED');
    station.clock.advance(5_000);
    await station.app.kycReviewer.run();
    expect(data(await order()).code).toBe('600519');
    await station.assertLedger();
  });
});
