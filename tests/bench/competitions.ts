/**
 * Competitions at scale (SQLite, embedded mode, a pinned clock on an always-open market; client and station
 * share the process and its cores, so the figures are conservative and not final on a busy machine):
 * - one competition of 10,000 entrants, each joined through the station's own join (competition accounts
 *   opened through the ledger) and holding one open position bought through the ordinary buy with
 *   competitionId;
 * - the ranking job's time per run at that size (it runs each second on the leader; target under 100 ms);
 * - leaderboard reads per second over real HTTP (target 2,000/s), from the market bench's load client
 *   (worker threads, keep-alive, BENCH_CONNECTIONS at a time, gzip/br accepted), pages of 20: the first page
 *   (what every viewer opens) and one deep in; meanwhile the ranking job runs each second on a clock moved a
 *   second each time, so every second brings a new snapshot and the answers are cut and compressed anew,
 *   as on a running station; ping.do in the same client, for the floor of any call here.
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
import { load } from './market';

const ENTRANTS = 10_000;
const RANKING_RUNS = 10;
const CODES = ['600036', '000001', '601318', '600519', '000858', 'AAPL', 'MSFT'];
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);

/** Runs the ranking job each second (the clock moved a second each time) until `stop()`; the runs' ms. */
function rankEachSecond(clock: FixedClock, run: () => Promise<number>) {
  const times: number[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      clock.set(clock.now() + 1000);
      await run();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return times;
    },
  };
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

    const board = (page: number) =>
      `${base}/api/competition/leaderboard.do?id=${competition.id}&pageNum=${page}&pageSize=20`;
    await load(board(1), 1, 16);
    const ranking = rankEachSecond(clock, () => app.competitionRanking.run());
    const first = await load(board(1));
    const deep = await load(board(Math.ceil(ENTRANTS / 40)));
    const during = await ranking.stop();
    const ping = await load(`${base}/api/index/ping.do`);
    const failed = (n: number) => (n > 0 ? `, ${n} failed` : '');
    console.log(
      `competitions: leaderboard reads, page 1: ${first.rps.toFixed(0)}/s (p99 ${first.p99.toFixed(1)} ms${failed(first.errors)}); ` +
        `page ${Math.ceil(ENTRANTS / 40)}: ${deep.rps.toFixed(0)}/s (p99 ${deep.p99.toFixed(1)} ms${failed(deep.errors)}); ` +
        `target ≥ 2,000/s; ping.do ${ping.rps.toFixed(0)}/s`,
    );
    console.log(
      `competitions: ranking job during the reads (${during.length} runs): median ${median(during).toFixed(1)} ms, ` +
        `max ${Math.max(...during).toFixed(1)} ms (target < 100 ms)`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
