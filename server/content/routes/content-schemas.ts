/**
 * What the reading side's route groups share: the JSON-schema pieces of their items and how a reader's
 * language is chosen.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ART_CATEGORIES,
  CONTENT_LANGS,
  isContentLang,
  NEWS_TYPES,
  NOTICE_LEVELS,
  type ContentLang,
} from '../../../src/shared/content';

export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const idField = { type: 'integer', minimum: 1, maximum: 1_000_000_000_000 } as const;
export const langField = {
  type: 'string',
  enum: [...CONTENT_LANGS],
  description: 'the reader language; default: Accept-Language',
} as const;
export const langOut = {
  type: 'string',
  enum: [...CONTENT_LANGS],
  description: 'the language the item is in',
};

export function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

export const newsItem = {
  id: int,
  title: str,
  summary: str,
  source: str,
  publishedAt: int,
  type: { type: 'string', enum: [...NEWS_TYPES] },
  lang: langOut,
};
export const noticeItem = {
  id: int,
  title: str,
  summary: str,
  level: { type: 'string', enum: [...NOTICE_LEVELS] },
  publishedAt: int,
  lang: langOut,
};
export const articleItem = {
  id: int,
  category: { type: 'string', enum: [...ART_CATEGORIES] },
  title: str,
  summary: str,
  publishedAt: int,
  lang: langOut,
};
export const markdown = { type: 'string', description: 'Markdown as stored; the app renders it sanitised' };

/** The reader's language: `?lang=`, else the request's Accept-Language (zh-CN when none fits). */
export type ReaderLang = (request: FastifyRequest, lang: ContentLang | undefined) => ContentLang;

export function readerLangOf(app: FastifyInstance): ReaderLang {
  return (request, lang) => {
    if (lang) return lang;
    const resolved = app.i18n.resolve(request.headers['accept-language']);
    return isContentLang(resolved) ? resolved : 'zh-CN';
  };
}

/** The language a stored item says it is in. */
export const langOf = (value: string): ContentLang => (isContentLang(value) ? value : 'zh-CN');
