/**
 * The reading side's fixed vocabulary (spec §1: news, notices, the financial college), shared by the station
 * and the app: the languages content is written in, the news types, the college's categories and the site
 * pages. Names are translated in the app's locales (section `content`); the station stores and answers the
 * keys.
 */

/** spec §1: the five languages; the starter news, notices, college articles and site pages exist in each. */
export const CONTENT_LANGS = ['zh-CN', 'en', 'zh-TW', 'th', 'vi'] as const;
export type ContentLang = (typeof CONTENT_LANGS)[number];

export const NEWS_TYPES = ['station', 'market', 'education', 'product'] as const;
export type NewsType = (typeof NEWS_TYPES)[number];

export const NOTICE_LEVELS = ['info', 'important'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

/** The financial college's shelves, in the order the app shows them. */
export const ART_CATEGORIES = ['basics', 'ashare', 'hkus', 'indicators', 'risk', 'ipo'] as const;
export type ArtCategory = (typeof ART_CATEGORIES)[number];

/** Site pages, each in all five languages. */
export const PAGE_KEYS = ['about', 'agreement', 'privacy', 'rules', 'newbie', 'version'] as const;
export type PageKey = (typeof PAGE_KEYS)[number];

/** The news list's page size (spec §9: 15, from page 1). */
export const NEWS_PAGE_SIZE = 15;

/** Limits of a customer-service message. */
export const SERVICE_MESSAGE_MAX = 1000;

/**
 * Where content in a language nobody wrote (an operator's item added in one language, or a version hidden)
 * falls back to, nearest first: Traditional Chinese readers read Simplified before English; Thai and
 * Vietnamese readers get English.
 */
export function contentFallbacks(lang: ContentLang): ContentLang[] {
  switch (lang) {
    case 'zh-CN':
      return ['zh-CN', 'en'];
    case 'zh-TW':
      return ['zh-TW', 'zh-CN', 'en'];
    case 'en':
      return ['en', 'zh-CN'];
    default:
      return [lang, 'en', 'zh-CN'];
  }
}

export function isContentLang(value: string): value is ContentLang {
  return (CONTENT_LANGS as readonly string[]).includes(value);
}
