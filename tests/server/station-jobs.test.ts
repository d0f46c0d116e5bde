import { describe, expect, it } from 'vitest';
import type { User } from '../../src/shared/api/types';
import { freshIdNumber, JPEG, PNG, upload } from './helpers/identity';
import { api, data, dbTargets, register, startStation, type Registered } from './helpers/station';

/** Submits KYC for `user` (pending until the rule reviewer decides it). */
async function submitKyc(user: Registered): Promise<void> {
  const front = data(await upload(user.client, PNG));
  const back = data(await upload(user.client, JPEG, 'image/jpeg'));
  data(
    await user.client.post<User>('/user/auth.do', {
      realName: '赵六',
      idNumber: freshIdNumber(),
      frontImage: front.id,
      backImage: back.id,
    }),
  );
}

describe.each(dbTargets)("the station's jobs (%s)", (db) => {
  it('review a due KYC submission by themselves once the station is started, without a trigger', async () => {
    const station = await startStation({ db });
    try {
      const me = await register(api(station.url));
      await submitKyc(me);
      station.clock.advance(station.config.reviewDelaySeconds * 1000);
      const deadline = Date.now() + 10_000;
      let user = data(await me.client.get<User>('/user/getUserInfo.do'));
      while (user.kycStatus === 'pending' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        user = data(await me.client.get<User>('/user/getUserInfo.do'));
      }
      expect(user.kycStatus).toBe('passed');
    } finally {
      await station.close();
    }
  });
});
