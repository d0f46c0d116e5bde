import { Link } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Translation } from '../../../../locales/i18n-types';
import { displaySettings$, type DisplaySettingsState } from '../../state/display-settings';

type EntryKey = keyof Translation['content']['entry'];

interface Entry {
  key: EntryKey;
  to: string;
  search?: Record<string, string>;
  /** spec §3: the display setting that must be on for the entry to show; none: always shown. */
  needs?: keyof Omit<DisplaySettingsState, 'loaded' | 'replay'>;
  /** An SVG path in a 24×24 box. */
  icon: string;
}

const ENTRIES: readonly Entry[] = [
  { key: 'aShares', to: '/trading-list', needs: 'stockDisplay', icon: 'M4 19h16M6 15l4-4 3 3 5-6' },
  {
    key: 'star',
    to: '/trading-list',
    search: { market: 'star' },
    needs: 'kcStockDisplay',
    icon: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
  },
  {
    key: 'hk',
    to: '/hk-list',
    needs: 'stockDisplay',
    icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18',
  },
  {
    key: 'us',
    to: '/trading-list',
    search: { market: 'us' },
    needs: 'stockDisplay',
    icon: 'M5 5h14v14H5zM5 10h14M10 5v14',
  },
  { key: 'index', to: '/indexlist', needs: 'indexDisplay', icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2' },
  { key: 'futures', to: '/indexlist', needs: 'futuresDisplay', icon: 'M4 7h16M4 12h10M4 17h6M18 14l3 3-3 3' },
  { key: 'subscription', to: '/Subscription', needs: 'stockDisplay', icon: 'M12 5v14M5 12h14' },
  { key: 'blockTrade', to: '/sharerecordDz', needs: 'stockDisplay', icon: 'M4 7h16v12H4zM9 7V4h6v3M4 12h16' },
  { key: 'vip', to: '/vipdetail', needs: 'stockDisplay', icon: 'M3 8l4 4 5-7 5 7 4-4-2 11H5z' },
  { key: 'funds', to: '/jijin', icon: 'M12 3a9 9 0 1 0 9 9h-9zM15 3.5A9 9 0 0 1 20.5 9H15z' },
  { key: 'allocation', to: '/funds', needs: 'stockDisplay', icon: 'M4 20h16M7 16V9M12 16V5M17 16v-4' },
  {
    key: 'competitions',
    to: '/competitions',
    icon: 'M8 4h8v5a4 4 0 0 1-8 0zM8 6H5a3 3 0 0 0 3 3M16 6h3a3 3 0 0 1-3 3M12 13v4M8 20h8M10 17h4',
  },
  { key: 'college', to: '/college', icon: 'M3 9l9-5 9 5-9 5zM7 11v5c3 2 7 2 10 0v-5' },
  { key: 'news', to: '/newPage', icon: 'M5 4h11l3 3v13H5zM8 9h8M8 13h8M8 17h5' },
  {
    key: 'newbie',
    to: '/college',
    search: { doc: 'newbie' },
    icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.5V14M12 17h.01',
  },
  { key: 'rules', to: '/trade', icon: 'M6 3h9l3 3v15H6zM9 9h6M9 13h6M9 17h4' },
  { key: 'service', to: '/service', icon: 'M4 13a8 8 0 0 1 16 0v4h-3v-5h3M4 12h3v5H4zM17 17c0 2-2 3-5 3' },
];

/** Entries to every area the display settings enable (spec §3), and the reading areas. */
export function HomeEntries() {
  const { LL } = useI18nContext();
  const settings = useSelector(() => displaySettings$.get());
  const shown = ENTRIES.filter((entry) => entry.needs === undefined || settings[entry.needs]);
  return (
    <section aria-labelledby="home-entries">
      <h2 id="home-entries" className="section-title">
        {LL.content.entries()}
      </h2>
      <nav className="entry-grid" aria-labelledby="home-entries">
        {shown.map((entry) => (
          <Link
            key={entry.key}
            to={entry.to}
            search={entry.search ?? {}}
            className="entry"
            data-testid={`entry-${entry.key}`}
          >
            <span className="entry-icon" aria-hidden="true">
              <svg viewBox="0 0 24 24" width="22" height="22">
                <path
                  d={entry.icon}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            </span>
            <span>{LL.content.entry[entry.key]()}</span>
          </Link>
        ))}
      </nav>
    </section>
  );
}
