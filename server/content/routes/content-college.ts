/**
 * The financial college (`/api/art/*`): articles shelf by shelf, one article, and the categories.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { ART_CATEGORIES, type ArtCategory } from '../../../src/shared/content';
import { articleCategories, contentById, listContent } from '../content';
import { ok, fields, pageNumField, pageOf, pageSizeField, responses } from '../../platform';
import {
  articleItem,
  idField,
  int,
  langField,
  langOf,
  markdown,
  object,
  type ReaderLang,
} from './content-schemas';

/** The financial college's article list, one article, and its categories. */
export function collegeRoutes(app: FastifyInstance, readerLang: ReaderLang): void {
  const station = app.station;
  app.get<{ Querystring: CallIn<'GET /api/art/list.do'> & { pageNum: number; pageSize: number } }>(
    '/api/art/list.do',
    {
      schema: {
        tags: ['content'],
        summary: 'Financial-college articles, shelf by shelf in course order, of one category or all',
        querystring: fields({
          pageNum: pageNumField,
          pageSize: pageSizeField,
          category: { type: 'string', enum: [...ART_CATEGORIES] },
          lang: langField,
        }),
        response: responses(pageOf(object(articleItem))),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listContent(station, {
        kind: 'article',
        lang: readerLang(request, q.lang),
        category: q.category,
        pageNum: q.pageNum,
        pageSize: q.pageSize,
      });
      return ok({
        ...page,
        list: page.list.map((r) => ({
          id: r.id,
          category: r.category as ArtCategory,
          title: r.title,
          summary: r.summary,
          publishedAt: r.published_at,
          lang: langOf(r.lang),
        })),
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/art/detail.do'> }>(
    '/api/art/detail.do',
    {
      schema: {
        tags: ['content'],
        summary: 'One financial-college article with its Markdown content',
        querystring: fields({ id: idField }, ['id']),
        response: responses(object({ ...articleItem, content: markdown })),
      },
    },
    async (request) => {
      const r = await contentById(station, 'article', request.query.id);
      return ok({
        id: r.id,
        category: r.category as ArtCategory,
        title: r.title,
        summary: r.summary,
        publishedAt: r.published_at,
        lang: langOf(r.lang),
        content: r.body,
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/art/categories.do'> }>(
    '/api/art/categories.do',
    {
      schema: {
        tags: ['content'],
        summary: "The college's categories in order, with how many articles each holds",
        querystring: fields({ lang: langField }),
        response: responses({
          type: 'array',
          items: object({ category: articleItem.category, total: int }),
        }),
      },
    },
    async (request) =>
      ok(
        (await articleCategories(station, readerLang(request, request.query.lang))).map((c) => ({
          category: c.category as ArtCategory,
          total: c.total,
        })),
      ),
  );
}
