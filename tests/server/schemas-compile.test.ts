/**
 * Route schemas are compiled on a route's first call (server/platform/http/lazy-schemas.ts), and all of
 * them before the entry point listens (`app.compileSchemas()`): every schema of the station compiles, a bad
 * one is named by its route, and a validator compiled late still refuses bad input with its field message.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemas } from '../../server/platform';
import { api, startStation } from './helpers/station';

describe('route schemas compiled on first use', () => {
  it('compiles every route’s request and answer schemas, as the entry point does before it listens', async () => {
    const station = await startStation({ db: 'sqlite' });
    try {
      expect(() => station.app.compileSchemas()).not.toThrow();
      // Compiled now, the routes answer as before: a good call, and a refused one with its field message.
      expect((await api(station.url).get('/api/index/ping.do')).http).toBe(200);
      const refused = await api(station.url).get('/api/stock/getStock.do', { market: 'a', pageSize: 'many' });
      expect(refused.http).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION' });
    } finally {
      await station.close();
    }
  });

  it('refuses bad input on a route never compiled before, with Ajv’s errors for the field', async () => {
    const station = await startStation({ db: 'sqlite' });
    try {
      const refused = await api(station.url).get('/api/stock/getStock.do', { market: 'a', pageSize: 'many' });
      expect(refused.http).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION', msg: expect.stringMatching(/\S/) });
      const good = await api(station.url).get('/api/stock/getStock.do', { market: 'a', pageSize: 5 });
      expect(good.http).toBe(200);
    } finally {
      await station.close();
    }
  });

  it('names the route of a schema that does not compile', async () => {
    const schemas = lazySchemas();
    const app = Fastify({ schemaController: schemas.schemaController });
    app.get(
      '/broken',
      { schema: { response: { 200: { type: 'object', properties: { n: { type: 'no-such-type' } } } } } },
      () => ({ n: 1 }),
    );
    try {
      await app.ready();
      expect(() => schemas.compileAll()).toThrow(/GET \/broken 200/);
    } finally {
      await app.close();
    }
  });
});
