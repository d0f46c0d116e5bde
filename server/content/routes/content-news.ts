/**
 * News (`/api/news/*`) and the station's notices (`/api/notice/*`): pages newest first and single items with
 * their Markdown.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { NEWS_TYPES, type NewsType, type NoticeLevel } from '../../../src/shared/content';
import { contentById, listContent } from '../content';
import { ok, fields, pageNumField, pageOf, pageSizeField, responses } from '../../platform';
import {
  idField,
  int,
  langField,
  langOf,
  langOut,
  markdown,
  newsItem,
  noticeItem,
  object,
  str,
  type ReaderLang,
} from './content-schemas';

/** The news list and one news item. */
export function newsRoutes(app: FastifyInstance, readerLang: ReaderLang): void {
  const station = app.station;
  app.get<{ Querystring: CallIn<'GET /api/news/getNewsList.do'> & { pageNum: number; pageSize: number } }>(
    '/api/news/getNewsList.do',
    {
      schema: {
        tags: ['content'],
        summary: 'News, newest first (spec §9: pages of 15 from page 1), of one type or all',
        querystring: fields({
          pageNum: pageNumField,
          pageSize: pageSizeField,
          type: { type: 'string', enum: [...NEWS_TYPES] },
          lang: langField,
        }),
        response: responses(pageOf(object(newsItem))),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listContent(station, {
        kind: 'news',
        lang: readerLang(request, q.lang),
        category: q.type,
        pageNum: q.pageNum,
        pageSize: q.pageSize,
      });
      return ok({
        ...page,
        list: page.list.map((r) => ({
          id: r.id,
          title: r.title,
          summary: r.summary,
          source: r.source,
          publishedAt: r.published_at,
          type: r.category as NewsType,
          lang: langOf(r.lang),
        })),
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/news/getDetail.do'> }>(
    '/api/news/getDetail.do',
    {
      schema: {
        tags: ['content'],
        summary: 'One news item with its Markdown content',
        querystring: fields({ id: idField }, ['id']),
        response: responses(
          object({
            id: int,
            title: str,
            content: markdown,
            source: str,
            publishedAt: int,
            type: newsItem.type,
            lang: langOut,
          }),
        ),
      },
    },
    async (request) => {
      const r = await contentById(station, 'news', request.query.id);
      return ok({
        id: r.id,
        title: r.title,
        content: r.body,
        source: r.source,
        publishedAt: r.published_at,
        type: r.category as NewsType,
        lang: langOf(r.lang),
      });
    },
  );
}

/** The notices list and one notice (the /newGg screen). */
export function noticeRoutes(app: FastifyInstance, readerLang: ReaderLang): void {
  const station = app.station;
  app.get<{
    Querystring: CallIn<'GET /api/notice/getNoticeList.do'> & { pageNum: number; pageSize: number };
  }>(
    '/api/notice/getNoticeList.do',
    {
      schema: {
        tags: ['content'],
        summary: "The station's notices (announcements), newest first",
        querystring: fields({ pageNum: pageNumField, pageSize: pageSizeField, lang: langField }),
        response: responses(pageOf(object(noticeItem))),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listContent(station, {
        kind: 'notice',
        lang: readerLang(request, q.lang),
        pageNum: q.pageNum,
        pageSize: q.pageSize,
      });
      return ok({
        ...page,
        list: page.list.map((r) => ({
          id: r.id,
          title: r.title,
          summary: r.summary,
          level: r.category as NoticeLevel,
          publishedAt: r.published_at,
          lang: langOf(r.lang),
        })),
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/notice/getDetail.do'> }>(
    '/api/notice/getDetail.do',
    {
      schema: {
        tags: ['content'],
        summary: 'One notice with its Markdown content (the /newGg screen)',
        querystring: fields({ id: idField }, ['id']),
        response: responses(object({ ...noticeItem, content: markdown })),
      },
    },
    async (request) => {
      const r = await contentById(station, 'notice', request.query.id);
      return ok({
        id: r.id,
        title: r.title,
        summary: r.summary,
        level: r.category as NoticeLevel,
        publishedAt: r.published_at,
        lang: langOf(r.lang),
        content: r.body,
      });
    },
  );
}
