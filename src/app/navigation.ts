import type { AppPath } from './routes/route-meta';

/**
 * A way for code outside React (the API client's "please log in first" handling) to change the route
 * without importing the router, which would tie the API layer to every screen.
 */
type NavigateFn = (to: AppPath) => void;

// main.tsx registers the router before the first render; until then there is nowhere to go.
let navigateImpl: NavigateFn = () => {};
let currentPathImpl: () => string = () => '/';

export function registerNavigator(navigate: NavigateFn, currentPath: () => string): void {
  navigateImpl = navigate;
  currentPathImpl = currentPath;
}

export function navigateTo(to: AppPath): void {
  navigateImpl(to);
}

export function currentPath(): string {
  return currentPathImpl();
}
