/** Identity helpers for server tests: KYC photos and a KYC pass through the real calls. */
import type { User } from '../../../src/shared/api/types';
import { idCardCheckChar } from '../../../src/shared/validation';
import type { FixedClock } from '../../../server/market/clock';
import { data, type ApiClient, type ApiResponse, type Registered, type TestStation } from './station';

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 3)]);

let serial = 0;
/** A valid 18-digit ID number not used before in this process. */
export function freshIdNumber(): string {
  serial += 1;
  const first17 = `110105198001${String(10 + (serial % 18)).padStart(2, '0')}${String(serial % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

export type Upload = { id: number; mime: string; size: number };

export async function upload(
  client: ApiClient,
  bytes: Buffer,
  type = 'image/png',
): Promise<ApiResponse<Upload>> {
  const res = await client.raw('/user/kyc/upload.do', {
    method: 'POST',
    headers: { 'content-type': type },
    body: bytes,
  });
  return { http: res.status, body: (await res.json()) as ApiResponse<Upload>['body'], headers: res.headers };
}

/** Submits KYC and lets the rule reviewer decide it (advancing the station's clock past the delay). */
export async function passKyc(
  station: TestStation<FixedClock>,
  user: Registered,
  realName = '王五',
): Promise<User> {
  const front = data(await upload(user.client, PNG));
  const back = data(await upload(user.client, JPEG, 'image/jpeg'));
  data(
    await user.client.post<User>('/user/auth.do', {
      realName,
      idNumber: freshIdNumber(),
      frontImage: front.id,
      backImage: back.id,
    }),
  );
  station.clock.advance(station.config.reviewDelaySeconds * 1000);
  await station.app.kycReviewer.run();
  return data(await user.client.get<User>('/user/getUserInfo.do'));
}
