/**
 * The edges of the HTTP layer: answers Node's parser gives before Fastify (still the envelope), caching of a
 * user's own data, and phone numbers kept out of the request log.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { api, dbTargets, register, startStation } from './helpers/station';

/** Sends `raw` bytes on a fresh connection and reads the whole answer until the station closes it. */
function rawExchange(url: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

describe.each(dbTargets)('the HTTP layer at its edges (%s)', (db) => {
  it('answers requests the HTTP parser refuses with the envelope: oversized headers 431, garbage 400', async () => {
    const station = await startStation({ db });
    try {
      const big = await rawExchange(
        station.url,
        `GET /api/index/ping.do HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      expect(big).toMatch(/content-type: application\/json/i);
      expect(bodyOf(big)).toEqual({ status: 431, code: 'VALIDATION', msg: expect.any(String) });

      const garbage = await rawExchange(station.url, 'NOT A REQUEST\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(garbage)).toEqual({ status: 400, code: 'VALIDATION', msg: expect.any(String) });
      // The station goes on serving.
      expect((await api(station.url).get('/api/index/ping.do')).http).toBe(200);
    } finally {
      await station.close();
    }
  });

  it("marks every answer with a user's data or session no-store, errors included, and leaves public calls cacheable", async () => {
    const station = await startStation({ db });
    try {
      const user = await register(api(station.url));
      for (const res of [
        await user.client.get('/user/getUserInfo.do'),
        await user.client.get('/user/position/list.do', { state: 'open' }),
        await api(station.url).get('/user/getUserInfo.do'),
      ]) {
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      expect((await api(station.url).get('/api/index/ping.do')).headers.get('cache-control')).not.toBe(
        'no-store',
      );
      // A session's token is never cached either.
      const login = await api(station.url).post('/api/user/login.do', {
        phone: user.phone,
        password: user.password,
      });
      expect(login.http).toBe(200);
      expect(login.headers.get('cache-control')).toBe('no-store');
      // Every call the station publishes under /user/ or /api/user/, or that reads the session wherever it
      // lives (its OpenAPI security), answered with or without a session, and unknown ones.
      const doc = (await (await api(station.url).raw('/docs/json')).json()) as {
        paths: Record<string, Record<string, { security?: unknown[] }>>;
      };
      const calls = Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.entries(methods)
          .filter(([, op]) => /^\/(api\/)?user\//.test(p) || (op.security?.length ?? 0) > 0)
          .map(([m]) => [m.toUpperCase(), p] as const),
      );
      expect(calls.length).toBeGreaterThan(40);
      for (const p of [
        '/api/user/exchangeLog.do',
        '/api/user/login.do',
        '/api/user/reg.do',
        '/api/user/logout.do',
        '/api/oss/token.do',
      ]) {
        expect(calls.map(([, c]) => c)).toContain(p);
      }
      calls.push(['GET', '/user/no-such-call.do'], ['GET', '/api/user/no-such-call.do']);
      for (const client of [api(station.url), user.client]) {
        for (const [method, p] of calls) {
          const res = await client.raw(p, {
            method,
            ...(method === 'POST'
              ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }
              : {}),
          });
          await res.arrayBuffer();
          expect(res.headers.get('cache-control'), `${method} ${p} (${res.status})`).toMatch(/no-store/);
        }
      }
    } finally {
      await station.close();
    }
  });

  it('logs a URL with a phone number in it masked, even at debug', async () => {
    const station = await startStation({ db, captureLogs: true, env: { LOG_LEVEL: 'debug' } });
    try {
      await api(station.url).get('/api/user/checkPhone.do', { phone: '13912345678' });
      // After a country code, and among other digits.
      await api(station.url).get('/api/user/checkPhone.do', { phone: '8613812344321' });
      await api(station.url).get('/api/index/ping.do', { x: '0137123456789' });
      const logs = station.logs.join('\n');
      expect(logs).toContain('139****5678');
      expect(logs).toContain('861******4321');
      expect(logs).toContain('013******6789');
      for (const phone of ['13912345678', '13812344321', '13712345678']) expect(logs).not.toContain(phone);
    } finally {
      await station.close();
    }
  });
});
