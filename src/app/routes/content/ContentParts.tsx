/** Small pieces the reading screens share: the rendered Markdown, an item's meta line, infinite scroll. */
import { memo, useEffect, useRef, type ReactNode } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Translation } from '../../../../locales/i18n-types';
import type { ContentLang } from '../../../shared/content';
import { formatDateTime } from '../../../shared/format';
import { renderMarkdown } from './markdown';
import './content.css';

/** Stored Markdown as React elements (markdown.ts: text only, never HTML). */
export const MarkdownView = memo(function MarkdownView({ source }: { source: string }) {
  return (
    <div className="md" data-testid="markdown">
      {renderMarkdown(source)}
    </div>
  );
});

const LANGUAGE_KEYS: Record<ContentLang, keyof Translation['language']> = {
  'zh-CN': 'zhCN',
  en: 'en',
  'zh-TW': 'zhTW',
  th: 'th',
  vi: 'vi',
};

/** "2026-11-24 09:00" in the viewer's time zone. */
export function publishedText(ms: number): string {
  return formatDateTime(ms).slice(0, 16);
}

/**
 * The date, and a language tag when the item is not in the reader's language (an item missing in it falls
 * back to the nearest one written; spec: each item says which language it is in).
 */
export function ContentMeta({
  publishedAt,
  lang,
  children,
}: {
  publishedAt: number;
  lang: ContentLang;
  children?: ReactNode;
}) {
  const { LL, locale } = useI18nContext();
  const language = LL.language[LANGUAGE_KEYS[lang]]();
  return (
    <span className="content-meta">
      {children}
      <time dateTime={new Date(publishedAt).toISOString()}>{publishedText(publishedAt)}</time>
      {lang !== locale && (
        <span className="tag" lang={lang} title={LL.content.writtenIn({ language })} data-testid="lang-tag">
          {language}
        </span>
      )}
    </span>
  );
}

/** Calls `onVisible` when the end of a list scrolls into view (infinite scroll); a button is the fallback. */
export function ScrollSentinel({ onVisible, active }: { onVisible: () => void; active: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });
  useEffect(() => {
    const node = ref.current;
    if (!node || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [active]);
  return <div ref={ref} className="scroll-sentinel" aria-hidden="true" />;
}
