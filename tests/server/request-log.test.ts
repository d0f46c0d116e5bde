import { describe, expect, it } from 'vitest';
import { api, dbTargets, register, startStation } from './helpers/station';

/** The JSON log lines a station wrote. */
const parsed = (logs: string[]) => logs.map((line) => JSON.parse(line) as Record<string, unknown>);

describe.each(dbTargets)('what the station logs about requests (default level info, %s)', (db) => {
  it('sums requests up in one line per period, logs every 5xx with its request id, never a token or phone', async () => {
    const station = await startStation({
      db,
      captureLogs: true,
      env: { REQUEST_LOG_SUMMARY_S: '1' },
    });
    try {
      const user = await register(api(station.url));
      for (let i = 0; i < 20; i++) await user.client.get('/user/getUserInfo.do');
      // No line per request at info: the ping, the registration and twenty reads left none of their own.
      expect(parsed(station.logs).filter((l) => l.msg === 'request completed')).toEqual([]);

      // Break the database under the running station: the fund flow's table disappears.
      await station.app.db.schema.dropTable('ledger_entries').execute();
      const failed = await user.client.get('/user/cash/list.do');
      expect(failed.http).toBe(500);
      const errors = parsed(station.logs).filter((l) => l.level === 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ msg: 'unexpected error', reqId: expect.any(String) });

      // The first response more than a period after a summary's start writes it (there may be several).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await user.client.get('/api/index/ping.do');
      const summaries = parsed(station.logs).filter((l) => l.msg === 'requests served') as {
        requests: number;
        status: Record<string, number>;
      }[];
      expect(summaries.length).toBeGreaterThanOrEqual(1);
      expect(summaries.reduce((n, s) => n + s.status['5xx']!, 0)).toBe(1);
      expect(summaries.reduce((n, s) => n + s.requests, 0)).toBeGreaterThanOrEqual(23);

      const all = station.logs.join('\n');
      expect(all).not.toContain(user.token);
      expect(all).not.toContain(user.phone);
    } finally {
      await station.close();
    }
  });

  it('sums up the last period’s requests when the station closes', async () => {
    // A period of a day: no summary line comes before the close, however slow the machine.
    const station = await startStation({ db, captureLogs: true, env: { REQUEST_LOG_SUMMARY_S: '86400' } });
    const user = await register(api(station.url));
    for (let i = 0; i < 5; i++) await user.client.get('/user/getUserInfo.do');
    await user.client.get('/user/no-such-call.do');
    expect(parsed(station.logs).filter((l) => l.msg === 'requests served')).toEqual([]);
    await station.close();
    const summaries = parsed(station.logs).filter((l) => l.msg === 'requests served') as {
      requests: number;
      status: Record<string, number>;
    }[];
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.status['4xx']).toBe(1);
    expect(summaries[0]!.requests).toBeGreaterThanOrEqual(7);
  });

  it('writes a line per request at debug, without the token or the phone, and a 5xx with its request id', async () => {
    const station = await startStation({ db, captureLogs: true, env: { LOG_LEVEL: 'debug' } });
    try {
      const user = await register(api(station.url));
      await user.client.get('/user/getUserInfo.do');
      // The session as the cookie, which the station reads itself: no line may carry it either.
      const byCookie = api(station.url).withHeaders({ cookie: `USER_TOKEN=${user.token}` });
      expect((await byCookie.get('/user/getUserInfo.do')).http).toBe(200);
      await station.app.db.schema.dropTable('ledger_entries').execute();
      expect((await byCookie.get('/user/cash/list.do')).http).toBe(500);
      const lines = parsed(station.logs).filter((l) => l.msg === 'request completed');
      expect(lines.length).toBeGreaterThanOrEqual(5);
      // The error's line and the failed request's line name the same request.
      const errors = parsed(station.logs).filter((l) => l.level === 50);
      const failed = lines.filter((l) => (l.res as { statusCode?: number }).statusCode === 500);
      expect(errors).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(errors[0]).toMatchObject({ msg: 'unexpected error', reqId: failed[0]!.reqId });
      expect(station.logs.join('\n')).not.toContain(user.token);
      expect(station.logs.join('\n')).not.toContain(user.phone);
    } finally {
      await station.close();
    }
  });
});
