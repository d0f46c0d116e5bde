/**
 * The reading side's calls (issue 7): news (`/api/news/*`), notices, the financial college
 * (`/api/art/*`), site pages and version notes, and the user's customer-service thread. Content comes
 * back as the Markdown stored; each item says which language it is in (the reader's, or the nearest one
 * written: news and articles exist in zh-CN and en only). Banners and site info are in site-settings.ts.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  ART_CATEGORIES,
  CONTENT_LANGS,
  isContentLang,
  NEWS_TYPES,
  NOTICE_LEVELS,
  PAGE_KEYS,
  SERVICE_MESSAGE_MAX,
  type ArtCategory,
  type ContentLang,
  type NewsType,
  type NoticeLevel,
  type PageKey,
} from '../../../src/shared/content';
import {
  articleCategories,
  contentById,
  listContent,
  seedContent,
  sendServiceMessage,
  serviceThread,
  sitePage,
} from '../content';
import { ok } from '../../platform/http/envelope';
import {
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  responses,
  userSecurity,
} from '../../platform/http/schemas';

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const idField = { type: 'integer', minimum: 1, maximum: 1_000_000_000_000 } as const;
const langField = {
  type: 'string',
  enum: [...CONTENT_LANGS],
  description: 'the reader language; default: Accept-Language',
} as const;
const langOut = { type: 'string', enum: [...CONTENT_LANGS], description: 'the language the item is in' };

function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const newsItem = {
  id: int,
  title: str,
  summary: str,
  source: str,
  publishedAt: int,
  type: { type: 'string', enum: [...NEWS_TYPES] },
  lang: langOut,
};
const noticeItem = {
  id: int,
  title: str,
  summary: str,
  level: { type: 'string', enum: [...NOTICE_LEVELS] },
  publishedAt: int,
  lang: langOut,
};
const articleItem = {
  id: int,
  category: { type: 'string', enum: [...ART_CATEGORIES] },
  title: str,
  summary: str,
  publishedAt: int,
  lang: langOut,
};
const markdown = { type: 'string', description: 'Markdown as stored; the app renders it sanitised' };

export const contentPlugin: FastifyPluginAsync<{ version: string }> = async (app, opts) => {
  const station = app.station;
  await seedContent(station);

  /** The reader's language: `?lang=`, else the request's Accept-Language (zh-CN when none fits). */
  const readerLang = (request: FastifyRequest, lang: ContentLang | undefined): ContentLang => {
    if (lang) return lang;
    const resolved = app.i18n.resolve(request.headers['accept-language']);
    return isContentLang(resolved) ? resolved : 'zh-CN';
  };
  const langOf = (value: string) => (isContentLang(value) ? value : 'zh-CN');

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

  const serviceMessage = object({
    id: int,
    sender: { type: 'string', enum: ['user', 'staff'] },
    content: str,
    createdAt: int,
    readAt: { type: ['integer', 'null'] },
  });

  app.get<{ Querystring: CallIn<'GET /user/service/messages.do'> }>(
    '/user/service/messages.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['content'],
        summary:
          "The user's thread with online customer service, oldest first (the newest 200, or those after afterId); answers become read",
        security: userSecurity,
        querystring: fields({ afterId: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 } }),
        response: responses({ type: 'array', items: serviceMessage }),
      },
    },
    async (request) =>
      ok(await serviceThread(station, app.auth.session(request).userId, request.query.afterId ?? 0)),
  );

  app.post<{ Body: CallIn<'POST /user/service/send.do'> }>(
    '/user/service/send.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['content'],
        summary: 'Write to online customer service (the back office answers from the operator command line)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ content: { type: 'string', maxLength: SERVICE_MESSAGE_MAX } }, ['content']),
        response: responses(serviceMessage),
      },
    },
    async (request) =>
      ok(await sendServiceMessage(station, app.auth.session(request).userId, request.body.content)),
  );
};
