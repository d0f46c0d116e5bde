import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { runOperatorCommand } from '../../server/cli/commands';
import { freshIdNumber, JPEG, passKyc, PNG, upload } from './helpers/identity';
import {
  api,
  data,
  dbTargets,
  failure,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

const run = promisify(execFile);

describe.each(dbTargets)('operator command line (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const op = async (command: string, ...args: string[]) => {
    const lines: string[] = [];
    const known = await runOperatorCommand(
      station.app.station,
      command,
      args,
      (l) => lines.push(l),
      'tester',
    );
    expect(known).toBe(true);
    return lines;
  };
  const auditOf = (userId: number) =>
    station.app.station.db
      .selectFrom('audit_log')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  async function pendingUser(): Promise<Registered> {
    const me = await register(client);
    const front = data(await upload(me.client, PNG));
    const back = data(await upload(me.client, JPEG, 'image/jpeg'));
    data(
      await me.client.post('/user/auth.do', {
        realName: '钱七',
        idNumber: freshIdNumber(),
        frontImage: front.id,
        backImage: back.id,
      }),
    );
    return me;
  }

  it('lists users with their KYC state, filtered', async () => {
    const me = await pendingUser();
    const lines = await op('users', '--kyc', 'pending', '--phone', me.phone);
    expect(lines[0]).toBe('1 user(s)');
    expect(lines[1]).toContain(`#${me.user.id}`);
    expect(lines[1]).toContain('kyc=pending');
    await expect(op('users', '--kyc', 'maybe')).rejects.toThrow(/--kyc/);
  });

  it('decides KYC before the reviewer, with the reason audited and shown to the user', async () => {
    const me = await pendingUser();
    await expect(op('kyc', String(me.user.id), 'fail')).rejects.toThrow(/--reason/);
    await op('kyc', String(me.user.id), 'fail', '--reason', '照片模糊，请重新上传');
    expect(data(await me.client.get<User>('/user/getUserInfo.do'))).toMatchObject({
      kycStatus: 'failed',
      kycFailReason: '照片模糊，请重新上传',
    });
    // The reviewer finds nothing left to decide, and nothing is pending for the operator either.
    station.clock.advance(10_000);
    await station.app.kycReviewer.run();
    expect(data(await me.client.get<User>('/user/getUserInfo.do')).kycStatus).toBe('failed');
    await expect(op('kyc', String(me.user.id), 'pass', '--reason', 'again')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const entries = await auditOf(me.user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: 'tester',
      action: 'kyc.fail',
      reason: '照片模糊，请重新上传',
      time: station.clock.now() - 10_000,
    });
  });

  it('grants and revokes permissions, and allows one bank change, each audited', async () => {
    const me = await register(client);
    await passKyc(station, me);
    const perms = async () =>
      data(await me.client.get<{ permissions: string[] }>('/user/getPermissions.do')).permissions;
    await op('grant', String(me.user.id), 'vip_picks', '--reason', 'VIP client', '--by', 'alice');
    expect(await perms()).toEqual(['vip_picks']);
    await op('revoke', String(me.user.id), 'vip_picks', '--reason', 'trial over');
    expect(await perms()).toEqual([]);
    await expect(op('grant', String(me.user.id), 'superuser', '--reason', 'x')).rejects.toThrow(
      /unknown permission/,
    );
    await expect(op('grant', '999999', 'vip_picks', '--reason', 'x')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    data(
      await me.client.post('/user/bank/add.do', {
        bankName: '建设银行',
        branch: '上海分行',
        cardNo: '6227001234567890123',
      }),
    );
    expect(
      failure(
        await me.client.post('/user/bank/update.do', {
          bankName: '建设银行',
          branch: '上海分行',
          cardNo: '6227001234567890999',
        }),
      ).code,
    ).toBe('NO_PERMISSION');
    await op('allow-bank-change', String(me.user.id), '--reason', 'card lost, ticket 42');
    data(
      await me.client.post('/user/bank/update.do', {
        bankName: '建设银行',
        branch: '上海分行',
        cardNo: '6227001234567890999',
      }),
    );

    const entries = await auditOf(me.user.id);
    expect(entries.map((e) => [e.actor, e.action, e.reason])).toEqual([
      ['alice', 'permission.grant', 'VIP client'],
      ['tester', 'permission.revoke', 'trial over'],
      ['tester', 'permission.grant', 'card lost, ticket 42'],
    ]);
    const lines = await op('audit', '--user', String(me.user.id));
    expect(lines[0]).toBe('3 audit entries');
    expect(lines[1]).toContain('card lost, ticket 42');
  });

  it('changes site settings the site calls read, refusing values of another shape', async () => {
    const before = data(
      await client.get<{ minWithdraw: number; siteName: string }>('/api/admin/getSetting.do'),
    );
    expect(before).toMatchObject({ siteName: 'PaperDesk', minWithdraw: 100 });
    const changed = { ...before, minWithdraw: 200 };
    await op('site-set', 'setting', JSON.stringify(changed), '--reason', 'raise the minimum');
    expect(data(await client.get('/api/admin/getSetting.do'))).toEqual(changed);

    await expect(
      op('site-set', 'setting', JSON.stringify({ ...changed, minWithdraw: '200' }), '--reason', 'x'),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(
      op('site-set', 'setting', JSON.stringify({ ...changed, extra: 1 }), '--reason', 'x'),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    const evil = [
      { id: 9, plat: 'h5', title: 'x', imageUrl: 'javascript:alert(1)', linkUrl: '/home', sort: 1 },
    ];
    await expect(op('site-set', 'banners', JSON.stringify(evil), '--reason', 'x')).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    expect(data(await client.get('/api/admin/getSetting.do'))).toEqual(changed);

    const banners = [
      { id: 2, plat: 'app', title: 'B', imageUrl: 'https://cdn.example/b.png', linkUrl: '/trade', sort: 2 },
      { id: 3, plat: 'app', title: 'A', imageUrl: '/a.png', linkUrl: '/home', sort: 1 },
    ];
    await op('site-set', 'banners', JSON.stringify(banners), '--reason', 'spring campaign');
    expect(
      data(await client.get<{ title: string }[]>('/api/site/getBannerByPlat.do', { plat: 'app' })).map(
        (b) => b.title,
      ),
    ).toEqual(['A', 'B']);
    expect(data(await client.get('/api/site/getBannerByPlat.do', { plat: 'h5' }))).toEqual([]);
    expect(failure(await client.get('/api/site/getBannerByPlat.do', { plat: 'tv' })).code).toBe('VALIDATION');
    const lines = await op('site-settings');
    expect(lines.find((l) => l.startsWith('setting = '))).toContain('"minWithdraw":200');
  });

  it('answers the other site calls from the settings', async () => {
    // The leverage choices and contract caps published are the ones buyIndex.do / buyFutures.do enforce.
    const index = data(
      await client.get<{ leverage: number[]; maxLots: number }>('/api/admin/getIndexSetting.do'),
    );
    expect(index).toMatchObject({
      leverage: station.config.settings.leverage.index,
      maxLots: station.config.settings.contractRules.index.maxContractsPerOrder,
    });
    const futures = data(
      await client.get<{ enabled: boolean; leverage: number[]; maxLots: number }>(
        '/api/admin/getFuturesSetting.do',
      ),
    );
    expect(futures).toMatchObject({
      enabled: true,
      leverage: station.config.settings.leverage.futures,
      maxLots: station.config.settings.contractRules.futures.maxContractsPerOrder,
    });
    expect(data(await client.get<{ name: string }>('/api/site/getInfo.do')).name).toBe('PaperDesk');
    const channels = data(await client.get<{ id: number; enabled: boolean }[]>('/api/site/getPayInfo.do'));
    expect(channels.map((c) => c.id)).toEqual([1, 2]);
    expect(data(await client.get<{ id: number }>('/api/site/getPayInfoById.do', { id: 2 })).id).toBe(2);
    expect(failure(await client.get('/api/site/getPayInfoById.do', { id: 77 })).code).toBe('NOT_FOUND');
    expect(failure(await client.get('/api/oss/token.do')).code).toBe('NOT_LOGGED_IN');
    const me = await register(client);
    expect(data(await me.client.get('/api/oss/token.do'))).toEqual({
      uploadUrl: '/user/kyc/upload.do',
      method: 'POST',
      accept: ['image/jpeg', 'image/png', 'image/webp'],
      maxBytes: 10 * 1024 * 1024,
    });
  });

  it('runs as `npm run station -- …` against the station’s database, beside ledger-check', async () => {
    const me = await register(client);
    const env = {
      ...process.env,
      DATA_DIR: station.config.dataDir,
      DATABASE_URL: station.config.databaseUrl ?? '',
      LOG_LEVEL: 'silent',
      USER: 'cli-operator',
    };
    const granted = await run(
      'npx',
      ['tsx', 'server/cli/main.ts', 'grant', String(me.user.id), 'vip_picks', '--reason', 'from the shell'],
      { env },
    );
    expect(granted.stdout).toContain(`user ${me.user.id} has vip_picks`);
    expect(
      data(await me.client.get<{ permissions: string[] }>('/user/getPermissions.do')).permissions,
    ).toEqual(['vip_picks']);
    expect((await auditOf(me.user.id))[0]).toMatchObject({ actor: 'cli-operator', reason: 'from the shell' });
    const bad = await run('npx', ['tsx', 'server/cli/main.ts', 'grant', String(me.user.id), 'vip_picks'], {
      env,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--reason') });
    const ledger = await run('npx', ['tsx', 'server/cli/main.ts', 'ledger-check'], { env });
    expect(ledger.stdout).toContain('ledger-check: OK');
  }, 60_000);
});
