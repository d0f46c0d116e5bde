/**
 * Build-time rendering of a tab screen's first frame (vite.config.ts, `prerenderShells`): the shell (notice
 * strip, header, tab bar) and the screen as it is drawn before any station data has arrived, in the default
 * language, so the HTML the station serves for that path paints without waiting for JavaScript. main.tsx's
 * first render replaces this markup in one commit and draws the same frame: nothing here fetches (queries
 * stay pending on the server, and the route loaders only preload once the app has started).
 *
 * What the build cannot know is read from the device by the head script (vite.config.ts, FIRST_FRAME_SCRIPT)
 * and handled by `firstFrameStyle`: the black theme paints black; a device in another language shows the
 * frame's shapes without the default language's words; a logged-in device does not see a logged-out screen.
 */
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import TypesafeI18n from '../../../locales/i18n-react';
import { baseLocale, i18nObject } from '../../../locales/i18n-util';
import { loadCurrentTexts, startLocale } from '../i18n/locale';
import { createAppRouter } from '../router';
import type { RouteMeta } from '../routes/route-meta';
import { session$ } from '../state/session';
import { TAB_PATHS } from '../state/shell';
import { PALETTES } from '../theme/palettes';
import { toCssName } from '../theme/themes';

/**
 * Screens whose first frame does not depend on their query, with two different queries to show it (the
 * build stops if the frames differ): the stock detail, the screen most often opened from a link.
 */
const QUERY_FREE: Readonly<Record<string, readonly [string, string]>> = {
  '/listdetail': ['?code=600519', '?code=00700'],
};

/** The paths whose first frame is written into their own HTML: the tab screens (spec §2) and QUERY_FREE's. */
export const PRERENDERED_PATHS: readonly string[] = [...TAB_PATHS, ...Object.keys(QUERY_FREE)];

/** Marks the written markup: styles that apply only until the app replaces it. */
const MARK = 'data-prerendered';

/** The markup of `path` as the app first draws it, with the session held or not. */
async function render(path: string, loggedIn: boolean): Promise<{ markup: string; title: string }> {
  session$.set({ token: loggedIn ? 'first-frame' : null, user: null });
  const queryClient = new QueryClient();
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }), queryClient });
  await router.load();
  const markup = renderToString(
    <TypesafeI18n locale={baseLocale}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </TypesafeI18n>,
  );
  const meta = router.state.matches.at(-1)?.staticData.meta as RouteMeta | null | undefined;
  const LL = i18nObject(baseLocale);
  const title = meta ? `${LL.titles[meta.titleKey]()} · ${LL.app.name()}` : LL.app.name();
  return { markup, title };
}

/**
 * Only what the first paint needs: no scripts (the router's scroll restoration runs again once the app is
 * up), no test ids (tests wait for the app's own markup, not for a frame that cannot be tapped yet), no
 * Suspense markers.
 */
function clean(markup: string): string {
  return markup
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/ data-testid="[^"]*"/g, '')
    .replace(/<!--\/?\$\??-->/g, '');
}

export interface FirstFrame {
  /** For #root. */
  readonly markup: string;
  /** For <title>. */
  readonly title: string;
}

/**
 * `path`'s first frame. Where a held session changes the screen, the screen is marked so that a logged-in
 * device shows the shell around an empty screen (firstFrameStyle) until the app draws the real one.
 */
export async function renderFirstFrame(path: string): Promise<FirstFrame> {
  await startLocale(baseLocale);
  await loadCurrentTexts();
  const [query, otherQuery] = QUERY_FREE[path] ?? ['', ''];
  const loggedOut = await render(`${path}${query}`, false);
  const loggedIn = await render(`${path}${query}`, true);
  if (otherQuery !== query && (await render(`${path}${otherQuery}`, false)).markup !== loggedOut.markup)
    throw new Error(`the first frame of ${path} depends on its query: it cannot be one page`);
  session$.set({ token: null, user: null });
  const sessionDependent = loggedOut.markup !== loggedIn.markup;
  const markup = clean(loggedOut.markup)
    .replace('<div class="app-shell', `<div ${MARK}="" class="app-shell`)
    .replace(
      '<main class="screen',
      `<main${sessionDependent ? ' data-session-dependent=""' : ''} class="screen`,
    );
  if (!markup.includes(MARK)) throw new Error(`the first frame of ${path} has no app shell`);
  return { markup, title: loggedOut.title };
}

/**
 * The head's style for the first frame, before the app's own code (themes.ts applyTheme) takes over: the black
 * palette under the head script's `data-theme`, and the frame's words or its screen hidden where the device
 * says they would be wrong (the shapes stay, so nothing moves when the app draws its frame).
 */
export function firstFrameStyle(): string {
  const black = Object.entries(PALETTES.black)
    .map(([key, value]) => `${toCssName(key)}:${value}`)
    .join(';');
  return [
    `html[data-theme='black']{${black};color-scheme:dark}`,
    `html[data-first-frame-language='other'] [${MARK}] *{color:transparent!important}`,
    `html[data-first-frame-session='in'] [${MARK}] main[data-session-dependent]>*{visibility:hidden}`,
  ].join('\n');
}
