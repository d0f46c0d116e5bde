/**
 * The station's memory under the two loads that could make it hold bytes for slow or greedy clients, each
 * with the station (server/main.ts, default settings) in its own process, as `npm start` runs it:
 * - 20 parallel 10 MB KYC photo uploads (20 users, one photo each): photos are streamed to disk, never
 *   whole in memory;
 * - 200 live quote streams of 50 codes that never read (each resuming a minute back with Last-Event-ID,
 *   so the station has a burst to write at once), STREAMS_PER_IP raised so one address may hold them all:
 *   a stream whose unread bytes pass STREAM_BUFFER_KB is dropped.
 * Prints, for each, the peak resident memory of the station process (VmRSS from /proc/<pid>/status sampled
 * every 50 ms; target under 500 MB) over its resting figure, and the p99 of ping.do latency measured
 * throughout by one client calling it in a loop. Linux only (/proc). BENCH_STREAM_HOLD_MS (default 10,000)
 * is how long the unread streams stay open.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { percentile, registerUsers, resetAgent, startStation, stopStation } from './orders';

const UPLOADS = 20;
const UPLOAD_BYTES = 10 * 1024 * 1024;
const STREAMS = 200;
const STREAM_HOLD_MS = Number(process.env.BENCH_STREAM_HOLD_MS ?? 10_000);
/** Fifty A-share codes: in always-open mode every one ticks each second. */
const CODES = [
  '600000,600004,600009,600010,600011,600015,600016,600018,600019,600023,600025,600026,600027,600028',
  '600029,600030,600031,600036,600039,600048,600050,600057,600061,600062,600066,600079,600085,600089',
  '600096,600104,600109,600111,600115,600118,600132,600141,600150,600153,600160,600161,600170,600176',
  '600183,600188,600196,600219,600221,600228,600233,600236',
].join(',');

/** A /proc/<pid>/status field in MB (VmRSS, VmHWM); 0 when unreadable. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(/(\d+)/.exec(line)![1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the process's VmRSS every 50 ms until stopped; answers the peak. */
function sampleRss(pid: number): { stop: () => number } {
  let peak = statusMb(pid, 'VmRSS');
  const timer = setInterval(() => (peak = Math.max(peak, statusMb(pid, 'VmRSS'))), 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, statusMb(pid, 'VmRSS'));
    },
  };
}

/** One client calling ping.do back to back (its own connection) until stopped; answers the latencies. */
function pingLoop(base: string): { stop: () => Promise<number[]> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let running = true;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const start = performance.now();
      http
        .get(`${base}/api/index/ping.do`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - start);
            resolve();
          });
        })
        .on('error', reject);
    });
  const done = (async () => {
    while (running) {
      await one();
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      agent.destroy();
      return latencies.sort((a, b) => a - b);
    },
  };
}

/** A KYC photo upload of `bytes` (a PNG signature, then filler), sent in 64 KB chunks as a network would. */
function uploadPhoto(base: string, token: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/user/kyc/upload.do`,
      {
        method: 'POST',
        headers: {
          'content-type': 'image/png',
          'content-length': bytes,
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    const filler = Buffer.alloc(64 * 1024, 7);
    const first = Buffer.from(filler);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(first);
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const part = (sent === 0 ? first : filler).subarray(0, Math.min(filler.length, bytes - sent));
        sent += part.length;
        if (!req.write(part)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

/** A raw connection asking for the stream, resuming `back` seconds ago, that never reads its answer. */
function stalledStream(port: number, back: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(
        `GET /api/stream/quotes?codes=${CODES} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n` +
          `Last-Event-ID: ${Math.floor(Date.now() / 1000) - back}\r\n\r\n`,
      );
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

async function phase(
  name: string,
  child: ChildProcess,
  base: string,
  work: () => Promise<string>,
): Promise<void> {
  const pid = child.pid!;
  const resting = statusMb(pid, 'VmRSS');
  const rss = sampleRss(pid);
  const ping = pingLoop(base);
  const start = performance.now();
  const outcome = await work();
  const seconds = (performance.now() - start) / 1000;
  const latencies = await ping.stop();
  const peak = rss.stop();
  console.log(
    `  ${name}: peak RSS ${peak.toFixed(0)} MB (resting ${resting.toFixed(0)} MB, target < 500 MB), ` +
      `ping.do p99 ${percentile(latencies, 0.99).toFixed(1)} ms over ${latencies.length} pings in ` +
      `${seconds.toFixed(1)} s; ${outcome}`,
  );
}

export async function benchStationMemory(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-memory-'));
  const station = await startStation(
    { DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'none'), STREAMS_PER_IP: '5000' },
    { readyLog: 'market history warmed up' },
  );
  try {
    const tokens = await registerUsers(station.base, UPLOADS);
    console.log(`station memory (default settings, load average ${loadavg()[0]!.toFixed(1)}):`);
    await phase(`${UPLOADS} parallel 10 MB KYC uploads`, station.child, station.base, async () => {
      const codes = await Promise.all(tokens.map((token) => uploadPhoto(station.base, token, UPLOAD_BYTES)));
      const refused = codes.filter((c) => c !== 200);
      return `${codes.length - refused.length} stored${refused.length ? ` (refused: HTTP ${refused.join(', ')})` : ''}`;
    });
    await phase(`${STREAMS} quote streams that never read`, station.child, station.base, async () => {
      const port = Number(new URL(station.base).port);
      const sockets = await Promise.all(Array.from({ length: STREAMS }, () => stalledStream(port, 60)));
      const closed = sockets.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));
      let dropped = 0;
      for (const c of closed) void c.then(() => dropped++);
      await new Promise((r) => setTimeout(r, STREAM_HOLD_MS));
      for (const s of sockets) s.destroy();
      return `${dropped} of ${STREAMS} dropped by the station within ${STREAM_HOLD_MS / 1000} s`;
    });
    console.log(`  lifetime peak (VmHWM) ${statusMb(station.child.pid!, 'VmHWM').toFixed(0)} MB`);
  } finally {
    resetAgent();
    await stopStation(station.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
