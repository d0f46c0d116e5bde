/** The prompt-type update: a waiting worker activates only when the page sends SKIP_WAITING. */
export function listenForSkipWaiting(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('message', (event: ExtendableMessageEvent) => {
    const data: unknown = event.data;
    if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING') {
      void scope.skipWaiting();
    }
  });
}
