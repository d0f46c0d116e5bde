import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { ArtCategory } from '../../../shared/content';
import { useStationQuery } from '../../api/station-query';
import { Tabs } from '../../components/Tabs';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { AsOfNote } from '../../components/ConnectionViews';
import type { CallKey } from '../../../shared/api/calls';
import { ContentMeta, MarkdownView } from './ContentParts';
import { SitePageView } from './SitePageScreen';

/**
 * /college: the financial college shelf by shelf (?cat=), one article (?id=), or the newbie help
 * (?doc=newbie), which belongs with the beginners' reading.
 */
export function CollegeScreen() {
  const { id, cat, doc } = useSearch({ from: '/college' });
  if (doc === 'newbie') return <SitePageView pageKey="newbie" />;
  return id === undefined ? <CollegeShelves category={cat} /> : <ArticleView id={id} />;
}

/** The calls the college's shelves are built from (the age note names the oldest). */
const COLLEGE_CALLS: readonly CallKey[] = ['GET /api/art/categories.do', 'GET /api/art/list.do'];

function CollegeShelves({ category }: { category?: ArtCategory }) {
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const categories = useStationQuery('GET /api/art/categories.do', { lang: locale });
  // A shelf holds a few dozen articles at most: one page of 100 is the whole shelf.
  const articles = useStationQuery('GET /api/art/list.do', {
    pageNum: 1,
    pageSize: 100,
    lang: locale,
    ...(category ? { category } : {}),
  });
  const tabs = [
    { key: 'all' as const, label: LL.content.all(), testId: 'college-all' },
    ...(categories.data ?? []).map((c) => ({
      key: c.category,
      label: `${LL.content.artCategories[c.category]()} ${c.total}`,
      testId: `college-${c.category}`,
    })),
  ];

  return (
    <div className="college">
      <AsOfNote call={COLLEGE_CALLS} />
      <p className="college-intro">{LL.content.collegeIntro()}</p>
      <div className="content-filter">
        <Tabs<ArtCategory | 'all'>
          items={tabs}
          value={category ?? 'all'}
          label={LL.titles.college()}
          onChange={(key) =>
            void navigate({ to: '/college', search: key === 'all' ? {} : { cat: key }, replace: true })
          }
        />
      </div>
      <Link to="/college" search={{ doc: 'newbie' }} className="content-row" data-testid="college-newbie">
        <strong>{LL.content.newbieHelp()}</strong>
      </Link>
      {articles.loading ? (
        <Loading />
      ) : !articles.data ? (
        articles.error && <ErrorState error={articles.error} onRetry={articles.reload} />
      ) : articles.data.list.length === 0 ? (
        <Empty text={LL.content.emptyArticles()} />
      ) : (
        <ul className="content-list" data-testid="article-list">
          {articles.data.list.map((article) => (
            <li key={article.id}>
              <Link
                to="/college"
                search={{ id: article.id }}
                className="content-row"
                data-testid="article-row"
                lang={article.lang}
              >
                <strong>{article.title}</strong>
                <span className="summary">{article.summary}</span>
                <ContentMeta publishedAt={article.publishedAt} lang={article.lang}>
                  <span className="tag">{LL.content.artCategories[article.category]()}</span>
                </ContentMeta>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ArticleView({ id }: { id: number }) {
  const { LL } = useI18nContext();
  const detail = useStationQuery('GET /api/art/detail.do', { id });
  if (detail.loading) return <Loading />;
  if (!detail.data) return detail.error ? <ErrorState error={detail.error} onRetry={detail.reload} /> : null;
  const article = detail.data;
  return (
    <article className="article" lang={article.lang} data-testid="article-detail">
      <AsOfNote call="GET /api/art/detail.do" />
      <h2>{article.title}</h2>
      <ContentMeta publishedAt={article.publishedAt} lang={article.lang}>
        <span className="tag">{LL.content.artCategories[article.category]()}</span>
      </ContentMeta>
      <MarkdownView source={article.content} />
    </article>
  );
}
