/**
 * Identity under load, over real HTTP on this machine (SQLite, embedded mode; client and station
 * share the process and its cores, so the figures are conservative).
 * - one login (scrypt N=16384): median and p95 latency, sequential.
 * - 200 parallel wrong-password logins for one phone: wall time, and how many were let through to the
 *   password check (the lockout allows LOGIN_MAX_FAILURES, 5 by default).
 * - 200 parallel SMS sends for one phone: wall time, and how many codes were sent (1).
 * - the ping with the security headers on: requests per second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';

const post = (url: string, body: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  }).then(async (res) => ({
    http: res.status,
    body: (await res.json()) as { status: number; code?: string; data?: { demoCode?: string } },
  }));

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export async function benchIdentity(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-bench-identity-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'none'),
    CLOCK_MODE: 'always-open',
    ORDERS_NEED_KYC: 'false',
    LOG_LEVEL: 'silent',
  });
  const app = await buildServer(config);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    app.jobs.start(); // as main.ts does: the engine and the reviewers run beside the load
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}`;

    const phone = '13900000001';
    const sms = await post(`${base}/api/sms/sendRegSms.do`, { phone });
    await post(`${base}/api/user/reg.do`, {
      phone,
      password: 'bench123',
      code: sms.body.data?.demoCode ?? '',
    });

    const logins: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const res = await post(`${base}/api/user/login.do`, { phone, password: 'bench123' });
      if (res.body.status !== 0) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      logins.push(performance.now() - start);
    }
    logins.sort((a, b) => a - b);
    console.log(
      `identity: login (scrypt) median ${percentile(logins, 0.5).toFixed(1)} ms, p95 ${percentile(logins, 0.95).toFixed(1)} ms (20 sequential)`,
    );

    let start = performance.now();
    const guesses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(`${base}/api/user/login.do`, { phone, password: `guess${i}x` }),
      ),
    );
    const tried = guesses.filter((r) => r.body.code === 'BAD_CREDENTIALS').length;
    console.log(
      `identity: 200 parallel wrong logins in ${(performance.now() - start).toFixed(0)} ms; ${tried} reached the password check, ${guesses.length - tried} refused as locked`,
    );

    start = performance.now();
    const sends = await Promise.all(
      Array.from({ length: 200 }, () => post(`${base}/api/sms/sendRegSms.do`, { phone: '13900000002' })),
    );
    console.log(
      `identity: 200 parallel SMS sends to one phone in ${(performance.now() - start).toFixed(0)} ms; ${sends.filter((r) => r.http === 200).length} sent`,
    );

    const until = performance.now() + 3000;
    let count = 0;
    const worker = async () => {
      while (performance.now() < until) {
        const res = await fetch(`${base}/api/index/ping.do`);
        await res.arrayBuffer();
        count += 1;
      }
    };
    start = performance.now();
    await Promise.all(Array.from({ length: 16 }, worker));
    console.log(
      `identity: ping with security headers: ${(count / ((performance.now() - start) / 1000)).toFixed(0)} req/s (16 clients)`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
