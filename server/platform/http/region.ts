/**
 * Region blocking (DOMAIN.md): when REGION_HEADER names the proxy's region header and its value is in
 * BLOCKED_REGIONS, every API call answers REGION_BLOCKED ("service not available in your area"). The
 * ping stays open so the app can reach the station and show the message.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

const GUARDED = /^\/(api|user|code)\//;
const OPEN = new Set(['/api/index/ping.do']);

async function regionPluginFn(app: FastifyInstance): Promise<void> {
  const { regionHeader, blockedRegions } = app.config.identity;
  if (!regionHeader || blockedRegions.length === 0) return;
  const blocked = new Set(blockedRegions);
  app.addHook('onRequest', async (request) => {
    const pathOnly = request.url.split('?')[0] ?? '';
    if (!GUARDED.test(pathOnly) || OPEN.has(pathOnly)) return;
    const raw = request.headers[regionHeader];
    const region = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
    if (region && blocked.has(region)) throw new AppError('REGION_BLOCKED');
  });
}
export const regionPlugin = fp(regionPluginFn, { name: 'region' });
