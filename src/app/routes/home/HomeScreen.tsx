import { Link } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { session$ } from '../../state/session';

/** /home: a greeting, shortcuts to the markets and positions, and login/register when logged out. */
export function HomeScreen() {
  const { LL } = useI18nContext();
  const user = useSelector(() => session$.user.get());
  const loggedIn = useSelector(() => session$.token.get() !== null);

  return (
    <div className="home">
      <section className="home-hero">
        <p className="brand">{LL.app.name()}</p>
        <h1 data-testid="greeting">
          {loggedIn && user ? LL.home.greetingUser({ phone: user.phone }) : LL.home.greeting()}
        </h1>
        <p className="muted">{LL.home.intro()}</p>
        {!loggedIn && (
          <div className="home-auth">
            <p>{LL.home.loggedOutHint()}</p>
            <div className="button-row">
              <Link to="/login" className="button primary" data-testid="home-login">
                {LL.common.login()}
              </Link>
              <Link to="/register" className="button secondary on-accent" data-testid="home-register">
                {LL.common.register()}
              </Link>
            </div>
          </div>
        )}
      </section>

      <section aria-labelledby="home-shortcuts">
        <h2 id="home-shortcuts" className="section-title">
          {LL.home.shortcuts()}
        </h2>
        <div className="shortcut-grid">
          <Link to="/trading-list" className="shortcut" data-testid="shortcut-markets">
            <ShortcutIcon kind="markets" />
            <strong>{LL.home.markets()}</strong>
            <span>{LL.home.marketsHint()}</span>
          </Link>
          <Link to="/warehouse" className="shortcut" data-testid="shortcut-positions">
            <ShortcutIcon kind="positions" />
            <strong>{LL.home.positions()}</strong>
            <span>{LL.home.positionsHint()}</span>
          </Link>
          <Link to="/hk-list" className="shortcut" data-testid="shortcut-hk">
            <ShortcutIcon kind="hk" />
            <strong>{LL.home.hkMarket()}</strong>
            <span>{LL.home.hkMarketHint()}</span>
          </Link>
          <Link to="/FundingDetails" className="shortcut" data-testid="shortcut-funding">
            <ShortcutIcon kind="funding" />
            <strong>{LL.home.funding()}</strong>
            <span>{LL.home.fundingHint()}</span>
          </Link>
        </div>
      </section>
    </div>
  );
}

function ShortcutIcon({ kind }: { kind: 'markets' | 'positions' | 'hk' | 'funding' }) {
  const paths: Record<typeof kind, string> = {
    markets: 'M4 19h16M6 15l4-4 3 3 5-6',
    positions: 'M4 8h16v11H4zM9 8V6h6v2',
    hk: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18',
    funding: 'M5 6h14M5 12h14M5 18h9',
  };
  return (
    <span className={`shortcut-icon ${kind}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" width="22" height="22">
        <path
          d={paths[kind]}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}
