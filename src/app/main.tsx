/** The app's entry: theme and language first, then the router, then the service worker. */
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import TypesafeI18n from '../../locales/i18n-react';
import { LocaleSync } from './i18n/LocaleSync';
import { resolveStartLocale, switchLocale } from './i18n/locale';
import { registerNavigator } from './navigation';
import { router } from './router';
import { locale$ } from './state/locale';
import { theme$ } from './state/theme';
import { registerServiceWorker } from './sw-registration';
import { ThemeSync } from './theme/ThemeSync';
import { applyTheme } from './theme/themes';

async function start(): Promise<void> {
  applyTheme(theme$.peek());
  // `?lang=` on any URL switches the language and stores it; only that dictionary is loaded.
  const locale = resolveStartLocale(window.location.search, locale$.peek());
  await switchLocale(locale);
  registerNavigator(
    (to) => void router.navigate({ to }),
    () => router.state.location.pathname,
  );

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  createRoot(container).render(
    <StrictMode>
      <TypesafeI18n locale={locale}>
        <LocaleSync />
        <ThemeSync />
        <RouterProvider router={router} />
      </TypesafeI18n>
    </StrictMode>,
  );
  registerServiceWorker();
}

void start();
