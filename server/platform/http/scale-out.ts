/**
 * Scale-out mode's parts as a root-level plugin (ARCHITECTURE.md "The test station"):
 * - `app.leader`: on PostgreSQL, leader election by advisory lock (server/platform/leader.ts), so that of all the
 *   processes on the database one runs the background jobs (engine, KYC reviewer, tick publication); on
 *   SQLite the process is alone and always the leader.
 * - `app.tickBus`: with REDIS_URL, the live-tick fan-out between processes (server/platform/redis.ts); null without.
 * - With REDIS_URL, rate-limit counters in Redis (`station.rateLimiter`), shared by every process.
 * Registered before the plugins that use them; everything opened here is closed with the station.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { electLeader, soleLeader, type Leadership } from '../leader';
import { connectRedis, createTickBus, redisNamespace, redisRateLimiter, type TickBus } from '../redis';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this process runs the background jobs now (always, in the embedded mode). */
    leader: Leadership;
    /** The tick fan-out between processes (REDIS_URL), or null: each process ticks its own clients. */
    tickBus: TickBus | null;
  }
}

async function scaleOutPluginFn(app: FastifyInstance): Promise<void> {
  const { config, station } = app;
  let redis: Redis | null = null;
  let tickBus: TickBus | null = null;
  let leader: Leadership = soleLeader;
  try {
    if (config.redisUrl) {
      redis = await connectRedis(config.redisUrl);
      const namespace = redisNamespace(config);
      tickBus = await createTickBus(redis, namespace);
      station.rateLimiter = redisRateLimiter(redis, namespace);
    }
    if (app.dialect === 'postgres' && config.databaseUrl) {
      leader = await electLeader({
        databaseUrl: config.databaseUrl,
        log: { info: (obj, msg) => app.log.info(obj, msg), warn: (obj, msg) => app.log.warn(obj, msg) },
      });
    }
  } catch (error) {
    await tickBus?.close().catch(() => undefined);
    redis?.disconnect();
    throw error;
  }
  app.decorate('leader', leader);
  app.decorate('tickBus', tickBus);
  // Runs after the other plugins' onClose hooks (registered later, run earlier): the engine's last step and
  // the stream's clients are done before the lock is given up and Redis is closed.
  app.addHook('onClose', async () => {
    await leader.close();
    await tickBus?.close();
    if (redis) await redis.quit().catch(() => redis?.disconnect());
  });
}
export const scaleOutPlugin = fp(scaleOutPluginFn, { name: 'scale-out' });
