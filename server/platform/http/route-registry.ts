/**
 * Every route the station registers, as registered (method, URL, whether a requireUser hook guards it).
 * Tests enumerate it: the authorization test walks every `/user/` route, so a new one without the
 * session check fails there.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The station's routes in order of registration (HEAD twins of GET routes left out). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/** Call right after creating the instance, before any route is registered. */
export function installRouteRegistry(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url });
    }
  });
}
