/** The app's entry: theme and language first, then the router, then the service worker. */
import './styles/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import TypesafeI18n from '../../locales/i18n-react';
import { LocaleSync } from './i18n/LocaleSync';
import { resolveStartLocale, switchLocale } from './i18n/locale';
import { registerNavigator } from './navigation';
import { router } from './router';
import { locale$ } from './state/locale';
import { effectivePriceColors, priceColors$ } from './state/price-colors';
import { theme$ } from './state/theme';
import { registerServiceWorker } from './sw-registration';
import { ThemeSync } from './theme/ThemeSync';
import { applyTheme } from './theme/themes';

/** Starts loading the code chunk of the screen the URL shows; rendering does not wait for more than that. */
async function preloadFirstScreen(): Promise<void> {
  try {
    await router.load();
  } catch {
    // A failed preload is retried, and shown, by the router once it renders.
  }
}

/** Ends the current task, so the browser can paint and handle input before the next step of start-up. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function start(): Promise<void> {
  // Evaluating the app's modules (React, the router's route tree, the persisted state) is one task
  // already; the first steps of start-up run in a task of their own.
  await nextTask();
  // `?lang=` on any URL switches the language and stores it; only that dictionary is loaded.
  const locale = resolveStartLocale(window.location.search, locale$.peek());
  applyTheme(theme$.peek(), effectivePriceColors(priceColors$.peek(), locale));
  // The dictionary and the first screen's code chunk load side by side, not one after the other.
  await Promise.all([switchLocale(locale), preloadFirstScreen()]);
  registerNavigator(
    (to) => void router.navigate({ to }),
    () => router.state.location.pathname,
  );

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
          <RouterProvider router={router} />
        </TypesafeI18n>
      </StrictMode>,
    ),
  );
  // The service worker's registration waits for a task of its own, after the first render's.
  await nextTask();
  registerServiceWorker();
}

void start();
