/**
 * The app's entry. The first paint needs no JavaScript: a tab screen's page holds its first frame, rendered
 * at build time, and any other route index.html's inline boot screen (whose stylesheet is only preloaded,
 * see vite.config.ts); React's first commit replaces either. Start-up runs in short tasks: evaluating the modules,
 * then the router's creation, then the first screen's chunk, then React's first render (a transition,
 * rendered in slices). The dictionary and the stylesheet load from the first task on, beside the rest.
 * The service worker registers once the browser is idle after the first render.
 */
import './styles/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import TypesafeI18n from '../../locales/i18n-react';
import { LocaleSync } from './i18n/LocaleSync';
import { resolveStartLocale, startLocale } from './i18n/locale';
import { startPreloading } from './routes/route-prefetch';
import { warmFormatters } from './i18n/warm-formatters';
import { queryClient } from './api/query-client';
import { registerNavigator } from './navigation';
import { createAppRouter } from './router';
import { locale$ } from './state/locale';
import { effectivePriceColors, priceColors$ } from './state/price-colors';
import { theme$ } from './state/theme';
import { registerServiceWorker } from './sw-registration';
import { ThemeSync } from './theme/ThemeSync';
import { applyTheme } from './theme/themes';

/** How long work left for an idle moment waits, at most. */
const IDLE_TIMEOUT_MS = 3000;

/** Ends the current task, so the browser can paint and handle input before the next step of start-up. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Applies the app's stylesheet, which the built index.html only preloads, and resolves once it is in
 * force (or has failed: the app renders anyway). In development Vite injects the CSS itself.
 */
function applyStylesheet(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-app-stylesheet]');
  if (!link) return Promise.resolve();
  return new Promise((resolve) => {
    link.onload = link.onerror = () => resolve();
    link.rel = 'stylesheet';
  });
}

/** Runs `work` when the browser is idle (or after IDLE_TIMEOUT_MS at the latest). */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(work, 0);
}

async function start(): Promise<void> {
  // `?lang=` on any URL switches the language and stores it; only the first screen's part of that dictionary is loaded.
  const locale = resolveStartLocale(window.location.search, locale$.peek());
  applyTheme(theme$.peek(), effectivePriceColors(priceColors$.peek(), locale));
  const ready = Promise.all([startLocale(locale), applyStylesheet()]);

  // The route tree's matcher is built in a task of its own.
  await nextTask();
  const router = createAppRouter();
  registerNavigator(
    (to) => void router.navigate({ to }),
    () => router.state.location.pathname,
  );

  // The first screen's code chunk loads beside the dictionary and the stylesheet, not after them.
  await nextTask();
  const firstScreen = router.load().catch(() => {
    // A failed preload is retried, and shown, by the router once it renders.
  });
  // While the network works: the number formatters the first prices need.
  whenIdle(() => warmFormatters(locale));
  await Promise.all([ready, firstScreen]);
  startPreloading();

  await nextTask();
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  // A transition renders in slices that yield to the browser, instead of one long task at start-up.
  startTransition(() =>
    root.render(
      <StrictMode>
        <TypesafeI18n locale={locale}>
          <LocaleSync />
          <ThemeSync />
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </TypesafeI18n>
      </StrictMode>,
    ),
  );
  // Once the first render is done and the browser idle: the service worker's registration (its script,
  // and the precaching it starts) does not compete with the first screen's rendering and requests.
  whenIdle(registerServiceWorker);
}

void start();
