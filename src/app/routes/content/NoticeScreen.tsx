import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { useStationPages, useStationQuery } from '../../api/station-query';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { ContentMeta, MarkdownView, ScrollSentinel } from './ContentParts';

/** /newGg: an announcement's detail (?id=), or the station's notices newest first. */
export function NoticeScreen() {
  const { id } = useSearch({ from: '/newGg' });
  return id === undefined ? <NoticeList /> : <NoticeDetailView id={id} />;
}

function NoticeList() {
  const { LL } = useI18nContext();
  const pages = useStationPages('GET /api/notice/getNoticeList.do', { pageSize: 20 });
  if (pages.loading) return <Loading />;
  if (pages.items.length === 0)
    return pages.error ? (
      <ErrorState error={pages.error} onRetry={pages.reload} />
    ) : (
      <Empty text={LL.content.emptyNotices()} />
    );
  return (
    <>
      <ul className="content-list" data-testid="notice-list">
        {pages.items.map((notice) => (
          <li key={notice.id}>
            <Link to="/newGg" search={{ id: notice.id }} className="content-row" lang={notice.lang}>
              <strong>{notice.title}</strong>
              <ContentMeta publishedAt={notice.publishedAt} lang={notice.lang}>
                {notice.level === 'important' && (
                  <span className="tag important">{LL.content.important()}</span>
                )}
              </ContentMeta>
            </Link>
          </li>
        ))}
      </ul>
      <ScrollSentinel onVisible={pages.loadMore} active={pages.hasMore && !pages.error} />
      {pages.loadingMore ? <Loading /> : !pages.hasMore && <p className="list-end">{LL.common.noMore()}</p>}
    </>
  );
}

function NoticeDetailView({ id }: { id: number }) {
  const { LL } = useI18nContext();
  const detail = useStationQuery('GET /api/notice/getDetail.do', { id });
  if (detail.loading) return <Loading />;
  if (!detail.data) return detail.error ? <ErrorState error={detail.error} onRetry={detail.reload} /> : null;
  const notice = detail.data;
  return (
    <article className="article" lang={notice.lang} data-testid="notice-detail">
      <h2>{notice.title}</h2>
      <ContentMeta publishedAt={notice.publishedAt} lang={notice.lang}>
        {notice.level === 'important' && <span className="tag important">{LL.content.important()}</span>}
      </ContentMeta>
      <MarkdownView source={notice.content} />
    </article>
  );
}
