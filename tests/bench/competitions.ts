/**
 * Competitions at scale (SQLite, embedded mode, a pinned clock on an always-open market; client and station
 * share the process and its cores, so the figures are conservative and not final on a busy machine):
 * - one competition of 10,000 entrants, each joined through the station's own join (competition accounts
 *   opened through the ledger) and holding one open position bought through the ordinary buy with
 *   competitionId;
 * - the ranking job's time per run at that size (it runs each second on the leader; target under 100 ms);
 * - leaderboard reads per second over real HTTP, 32 at a time, random pages of 20 (target 2,000/s).
 * Its users are written straight into the database (registration hashes a password: minutes for 10,000),
 * everything after that goes through the station's functions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { FixedClock } from '../../server/market/clock';
import { buy } from '../../server/trading/open-position';
import { createCompetition } from '../../server/competitions/competitions';
import { joinCompetition } from '../../server/competitions/entry';

const ENTRANTS = 10_000;
const RANKING_RUNS = 10;
const READERS = 32;
const READ_SECONDS = 5;
const MAX_READS = 50_000;
const CODES = ['600036', '000001', '601318', '600519', '000858', 'AAPL', 'MSFT'];
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);

/** GETs from READERS loops for READ_SECONDS (at most MAX_READS): answers per second and failures. */
async function readRate(url: () => string): Promise<{ perSecond: number; failures: number }> {
  let reads = 0;
  let failures = 0;
  const start = performance.now();
  const deadline = start + READ_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (performance.now() < deadline && reads < MAX_READS) {
        reads += 1;
        const body = (await (await fetch(url())).json()) as { status: number };
        if (body.status !== 0) failures += 1;
      }
    }),
  );
  return { perSecond: reads / ((performance.now() - start) / 1000), failures };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function benchCompetitions(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-bench-competitions-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'none'),
    CLOCK_MODE: 'always-open',
    ORDERS_NEED_KYC: 'false',
    LOG_LEVEL: 'silent',
  });
  const clock = new FixedClock(T0);
  const app = await buildServer(config, { clock });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}`;
    const { station } = app;

    const setupStart = performance.now();
    const users = [];
    for (let i = 0; i < ENTRANTS + 1; i += 500) {
      const rows = Array.from({ length: Math.min(500, ENTRANTS + 1 - i) }, (_, k) => ({
        phone: `137${String(i + k).padStart(8, '0')}`,
        password_hash: 'bench',
        invite_code: `B${String(i + k).padStart(7, '0')}`,
        inviter_id: null,
        real_name: null,
        kyc_status: 'none' as const,
        kyc_fail_reason: null,
        withdraw_password_hash: null,
        created_at: T0,
      }));
      users.push(...(await station.db.insertInto('users').values(rows).returning('id').execute()));
    }
    const [creator, ...entrants] = users.map((u) => u.id);
    const competition = await createCompetition(station, creator!, {
      name: 'Bench cup',
      startAt: T0 + 60_000,
      endAt: T0 + 30 * 86_400_000,
      startingCash: 1_000_000,
      startingCashUsd: 100_000,
      markets: 'a,us',
      maxLeverage: 5,
      allowShort: false,
      visibility: 'public',
      requestId: 'bench-create-0001',
    });
    for (const [i, userId] of entrants.entries()) {
      await joinCompetition(station, userId, { id: competition.id, requestId: `bench-join-${i}` });
    }
    clock.set(T0 + 120_000);
    for (const [i, userId] of entrants.entries()) {
      await buy(station, userId, {
        code: CODES[i % CODES.length]!,
        lots: 1 + (i % 5),
        leverage: 1 + (i % 2),
        competitionId: competition.id,
        requestId: `bench-buy-${i}`,
      });
    }
    console.log(
      `competitions: ${ENTRANTS} entrants joined and one position each in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
    );

    const rankings: number[] = [];
    for (let run = 0; run < RANKING_RUNS; run++) {
      clock.set(T0 + 180_000 + run * 1000);
      const start = performance.now();
      await app.competitionRanking.run();
      rankings.push(performance.now() - start);
    }
    console.log(
      `competitions: ranking job at ${ENTRANTS} entrants: median ${median(rankings).toFixed(1)} ms, ` +
        `max ${Math.max(...rankings).toFixed(1)} ms per run (target < 100 ms)`,
    );

    const pages = Math.ceil(ENTRANTS / 20);
    const leaderboardRate = await readRate(
      () =>
        `${base}/api/competition/leaderboard.do?id=${competition.id}&pageNum=${1 + Math.floor(Math.random() * pages)}&pageSize=20`,
    );
    // The same loop on ping.do: the floor of any call on this machine, for judging the rate above.
    const pingRate = await readRate(() => `${base}/api/index/ping.do`);
    console.log(
      `competitions: leaderboard reads ${leaderboardRate.perSecond.toFixed(0)}/s (${READERS} at a time, pages of ` +
        `20, ${leaderboardRate.failures} failed; target ≥ 2,000/s); ping.do in the same loop ` +
        `${pingRate.perSecond.toFixed(0)}/s`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
