import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { NEWS_PAGE_SIZE, NEWS_TYPES, type NewsType } from '../../../shared/content';
import { useStationPages, useStationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { Tabs } from '../../components/Tabs';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { ContentMeta, MarkdownView, ScrollSentinel } from './ContentParts';

/**
 * /newPage: the news list (spec §9: pages of 15 from page 1, more as you scroll), one item with ?id=, or one
 * of a stock's own news items (from its detail screen) with ?stock=.
 */
export function NewsScreen() {
  const { id, type, stock } = useSearch({ from: '/newPage' });
  if (stock !== undefined) return <StockNewsDetailView id={stock} />;
  return id === undefined ? <NewsList type={type} /> : <NewsDetailView id={id} />;
}

function NewsList({ type }: { type?: NewsType }) {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const pages = useStationPages('GET /api/news/getNewsList.do', { pageSize: NEWS_PAGE_SIZE, type });
  const tabs = [
    { key: 'all', label: LL.content.all(), testId: 'news-type-all' },
    ...NEWS_TYPES.map((t) => ({ key: t, label: LL.content.newsTypes[t](), testId: `news-type-${t}` })),
  ] as const;

  return (
    <div className="news-screen">
      <div className="content-filter">
        <Tabs<NewsType | 'all'>
          items={tabs}
          value={type ?? 'all'}
          label={LL.content.news()}
          onChange={(key) =>
            void navigate({ to: '/newPage', search: key === 'all' ? {} : { type: key }, replace: true })
          }
        />
      </div>
      <AsOfNote call="GET /api/news/getNewsList.do" />
      {pages.loading ? (
        <Loading />
      ) : pages.items.length === 0 ? (
        pages.error ? (
          <ErrorState error={pages.error} onRetry={pages.reload} />
        ) : (
          <Empty text={LL.content.emptyNews()} />
        )
      ) : (
        <>
          <ul className="content-list" data-testid="news-list">
            {pages.items.map((item) => (
              <li key={item.id}>
                <Link
                  to="/newPage"
                  search={{ id: item.id }}
                  className="content-row"
                  data-testid="news-row"
                  lang={item.lang}
                >
                  <strong>{item.title}</strong>
                  {item.summary && <span className="summary">{item.summary}</span>}
                  <ContentMeta publishedAt={item.publishedAt} lang={item.lang}>
                    <span className="tag">{LL.content.newsTypes[item.type]()}</span>
                  </ContentMeta>
                </Link>
              </li>
            ))}
          </ul>
          {pages.error && <p className="inline-error">{pages.error.message}</p>}
          <ScrollSentinel onVisible={pages.loadMore} active={pages.hasMore && !pages.error} />
          {pages.loadingMore ? (
            <Loading />
          ) : pages.hasMore ? (
            <button type="button" className="button ghost block" onClick={pages.loadMore}>
              {LL.common.loadMore()}
            </button>
          ) : (
            <p className="list-end">{LL.common.noMore()}</p>
          )}
        </>
      )}
    </div>
  );
}

function NewsDetailView({ id }: { id: number }) {
  const { LL } = useI18nContext();
  const detail = useStationQuery('GET /api/news/getDetail.do', { id });
  if (detail.loading) return <Loading />;
  if (!detail.data) return detail.error ? <ErrorState error={detail.error} onRetry={detail.reload} /> : null;
  const news = detail.data;
  return (
    <article className="article" lang={news.lang} data-testid="news-detail">
      <AsOfNote call="GET /api/news/getDetail.do" />
      <h2>{news.title}</h2>
      <ContentMeta publishedAt={news.publishedAt} lang={news.lang}>
        <span className="tag">{LL.content.newsTypes[news.type]()}</span>
        <span>{LL.content.source({ source: news.source })}</span>
      </ContentMeta>
      <MarkdownView source={news.content} />
    </article>
  );
}

/** One of a stock's own news items, written by the station from its simulated market. */
function StockNewsDetailView({ id }: { id: string }) {
  const { LL } = useI18nContext();
  const detail = useStationQuery('GET /api/stock/getStockNewsDetail.do', { id });
  if (detail.loading) return <Loading />;
  if (!detail.data) return detail.error ? <ErrorState error={detail.error} onRetry={detail.reload} /> : null;
  const news = detail.data;
  return (
    <article className="article" lang={news.lang} data-testid="news-detail">
      <AsOfNote call="GET /api/stock/getStockNewsDetail.do" />
      <h2>{news.title}</h2>
      <ContentMeta publishedAt={news.publishedAt} lang={news.lang}>
        <span className="tag">{news.code}</span>
        <span>{LL.content.source({ source: news.source })}</span>
      </ContentMeta>
      <MarkdownView source={news.content} />
    </article>
  );
}
