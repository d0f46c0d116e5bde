/**
 * The station's own texts (fund-flow notes, pay channels, banners, site settings) are stored as keys and
 * answered in the request's language, entries written before as English words included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntry, Page, Recharge } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

/** Any string of an answer that still looks like a stored key. */
function keysLeft(value: unknown): string[] {
  if (typeof value === 'string') return /^@[A-Za-z]/.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(keysLeft);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(keysLeft);
  return [];
}

describe.each(dbTargets)('station texts (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const flow = async (user: Registered, lang: string) =>
    data(
      await user.client
        .withLang(lang)
        .get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'main', pageNum: 1, pageSize: 50 }),
    ).list;

  it('answers fund-flow notes in the reader language, with their key and parameters', async () => {
    const user = await register(client);
    data(
      await user.client.post('/user/transAmt.do', {
        amount: 100,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
    );
    const byLang = async (lang: string) => {
      const list = await flow(user, lang);
      return {
        opening: list.find((e) => e.type === 'opening_balance')!,
        out: list.find((e) => e.type === 'transfer_out')!,
      };
    };
    const en = await byLang('en');
    expect(en.opening.note).toBe('Paper starting balance');
    expect(en.out).toMatchObject({
      note: 'To the index account',
      noteKey: 'noteTransferTo',
      noteParams: { account: 'index' },
    });
    const zh = await byLang('zh-CN');
    expect([zh.opening.note, zh.out.note]).toEqual(['模拟初始资金', '转至指数账户']);
    const th = await byLang('th');
    expect([th.opening.note, th.out.note]).toEqual(['ยอดเงินเริ่มต้นจำลอง', 'โอนไปยังบัญชีดัชนี']);
    const vi = await byLang('vi');
    expect(vi.out.note).toBe('Chuyển đến Tài khoản chỉ số');
    expect(keysLeft(await flow(user, 'en'))).toEqual([]);
  });

  it('reads notes stored as English words before they were keys in the reader language', async () => {
    const user = await register(client);
    const entries = await flow(user, 'en');
    const opening = entries.find((e) => e.type === 'opening_balance')!;
    await station.app.db
      .updateTable('ledger_entries')
      .set({ note: 'paper starting balance' })
      .where('id', '=', opening.id)
      .execute();
    const index = await flow(user, 'zh-TW');
    expect(index.find((e) => e.id === opening.id)).toMatchObject({
      note: '模擬初始資金',
      noteKey: 'noteOpeningBalance',
    });
    await station.app.db
      .updateTable('ledger_entries')
      .set({ note: '← main' })
      .where('id', '=', opening.id)
      .execute();
    const zh = await flow(user, 'zh-CN');
    expect(zh.find((e) => e.id === opening.id)).toMatchObject({
      note: '来自A股账户',
      noteKey: 'noteTransferFrom',
      noteParams: { account: 'main' },
    });
    // A note of codes and numbers has no language: as stored, without a key.
    await station.app.db
      .updateTable('ledger_entries')
      .set({ note: '600519 ×100' })
      .where('id', '=', opening.id)
      .execute();
    const th = await flow(user, 'th');
    expect(th.find((e) => e.id === opening.id)).toMatchObject({ note: '600519 ×100', noteKey: null });
  });

  it('answers pay channels, banners and site texts in the reader language', async () => {
    const channels = async (lang: string) =>
      data(await client.withLang(lang).get<{ name: string; payee: string }[]>('/api/site/getPayInfo.do'));
    expect((await channels('en'))[0]).toMatchObject({
      name: 'Simulated bank transfer (play money)',
      payee: 'PaperDesk test station',
    });
    expect((await channels('zh-CN'))[0]).toMatchObject({
      name: '模拟银行转账（模拟资金）',
      payee: 'PaperDesk 测试站',
    });
    expect((await channels('vi'))[0]!.name).toBe('Chuyển khoản ngân hàng mô phỏng (tiền ảo)');
    const banners = data(
      await client.withLang('th').get<{ title: string }[]>('/api/site/getBannerByPlat.do', { plat: 'h5' }),
    );
    expect(banners[0]!.title).toBe('ฝึกเทรดด้วยเงินจำลอง');
    const setting = data(
      await client.withLang('zh-TW').get<{ noticeText: string }>('/api/admin/getSetting.do'),
    );
    expect(setting.noticeText).toContain('模擬資金');
    for (const lang of ['zh-CN', 'zh-TW', 'en', 'th', 'vi']) {
      const info = data(await client.withLang(lang).get('/api/site/getInfo.do'));
      expect(keysLeft([info, await channels(lang)])).toEqual([]);
    }
  });

  it('names a deposit channel in the reader language, deposits stored with the English name too', async () => {
    const user = await register(client);
    const recharge = data(
      await user.client.withLang('zh-CN').post<Recharge>('/user/recharge/inMoney.do', {
        amount: 500,
        channelId: 1,
        requestId: newRequestId(),
      }),
    );
    expect(recharge.channel).toBe('模拟银行转账（模拟资金）');
    const list = async (lang: string) =>
      data(await user.client.withLang(lang).get<Page<Recharge>>('/user/recharge/list.do', { pageNum: 1 }))
        .list;
    expect((await list('en'))[0]!.channel).toBe('Simulated bank transfer (play money)');
    await station.app.db
      .updateTable('recharges')
      .set({ channel_name: 'Simulated instant top-up (play money)' })
      .where('id', '=', recharge.id)
      .execute();
    expect((await list('th'))[0]!.channel).toBe('เติมเงินทันทีแบบจำลอง (เงินจำลอง)');
  });
});
