/**
 * Site pages (about, agreements, rules, help) and the version notes, in the reader language.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { PAGE_KEYS, type PageKey } from '../../../src/shared/content';
import { sitePage } from '../content';
import { ok, fields, responses } from '../../platform';
import { int, langField, langOf, langOut, markdown, object, str, type ReaderLang } from './content-schemas';

/** A site page and the station's version with its release notes. */
export function sitePageRoutes(
  app: FastifyInstance,
  readerLang: ReaderLang,
  opts: { version: string },
): void {
  const station = app.station;
  app.get<{ Querystring: CallIn<'GET /api/site/getPage.do'> }>(
    '/api/site/getPage.do',
    {
      schema: {
        tags: ['content'],
        summary:
          'A site page in the reader language: about, user agreement, privacy, trading rules, newbie help, version notes',
        querystring: fields({ key: { type: 'string', enum: [...PAGE_KEYS] }, lang: langField }, ['key']),
        response: responses(
          object({
            key: { type: 'string', enum: [...PAGE_KEYS] },
            title: str,
            content: markdown,
            lang: langOut,
            updatedAt: int,
          }),
        ),
      },
    },
    async (request) => {
      const r = await sitePage(station, request.query.key, readerLang(request, request.query.lang));
      return ok({
        key: r.slug as PageKey,
        title: r.title,
        content: r.body,
        lang: langOf(r.lang),
        updatedAt: r.updated_at,
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/site/getVersion.do'> }>(
    '/api/site/getVersion.do',
    {
      schema: {
        tags: ['content'],
        summary: "The station's version and its release notes (Markdown) in the reader language",
        querystring: fields({ lang: langField }),
        response: responses(object({ version: str, notes: markdown, lang: langOut, updatedAt: int })),
      },
    },
    async (request) => {
      const r = await sitePage(station, 'version', readerLang(request, request.query.lang));
      return ok({ version: opts.version, notes: r.body, lang: langOf(r.lang), updatedAt: r.updated_at });
    },
  );
}
