/**
 * The reading side's calls: news (`/api/news/*`), notices, the financial college (`/api/art/*`), site pages
 * and version notes, and the user's customer-service thread. Content comes back as the Markdown stored; each
 * item says which language it is in (the reader's, or the nearest one written when an item is missing in it:
 * see contentFallbacks). The routes live by group beside their schemas (content-news, content-college,
 * content-site-pages, content-service); banners and site info are in site-settings.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { seedContent } from '../content';
import { collegeRoutes } from './content-college';
import { newsRoutes, noticeRoutes } from './content-news';
import { readerLangOf } from './content-schemas';
import { customerServiceRoutes } from './content-service';
import { sitePageRoutes } from './content-site-pages';

export const contentPlugin: FastifyPluginAsync<{ version: string }> = async (app, opts) => {
  await seedContent(app.station);
  const readerLang = readerLangOf(app);
  // In the order the OpenAPI document has always listed them.
  newsRoutes(app, readerLang);
  noticeRoutes(app, readerLang);
  collegeRoutes(app, readerLang);
  sitePageRoutes(app, readerLang, opts);
  customerServiceRoutes(app);
};
