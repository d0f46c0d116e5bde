/** The messages pages post to the service worker (shared/sw-protocol.ts), answered on the message's port. */
import {
  isPageToWorker,
  type BaseUrlAnswer,
  type OfflineReadyAnswer,
  type VersionAnswer,
} from '../shared/sw-protocol';
import type { DataLayer } from './data-layer';
import type { Outbox } from './outbox';
import type { LaterFiles } from './shell';

export function listenForPageMessages(
  scope: ServiceWorkerGlobalScope,
  layer: DataLayer,
  outbox: Outbox,
  laterFiles: LaterFiles,
  build: string,
): void {
  scope.addEventListener('message', (event: ExtendableMessageEvent) => {
    const message: unknown = event.data;
    if (!isPageToWorker(message)) return;
    const port = event.ports[0];
    switch (message.type) {
      case 'GET_BASE_URL':
      case 'DISCOVER': {
        // A page asks at its start (spec §7: the base URL is resolved at start-up; one that answered
        // recently is used without waiting for a ping, data-layer.ts) or from its retry (a discovery afresh).
        const found = layer.isOffline()
          ? Promise.resolve(null)
          : message.type === 'GET_BASE_URL'
            ? layer.startBaseUrl()
            : layer.rediscover();
        event.waitUntil(
          found.then(
            (baseUrl) => {
              const answer: BaseUrlAnswer = {
                baseUrl,
                unreachable: baseUrl === null && layer.mayCallUnreachable(),
                waitingFor: layer.waitingFor(),
              };
              port?.postMessage(answer);
              if (baseUrl !== null) return outbox.flush();
            },
            () => port?.postMessage({ baseUrl: null } satisfies BaseUrlAnswer),
          ),
        );
        break;
      }
      case 'NETWORK_STATE':
        layer.setPageOnline(message.online);
        if (message.online) event.waitUntil(outbox.flush().catch(() => undefined));
        break;
      case 'GET_VERSION':
        port?.postMessage({ build } satisfies VersionAnswer);
        break;
      case 'OFFLINE_READY':
        event.waitUntil(
          laterFiles.warm().then((ready) => port?.postMessage({ ready } satisfies OfflineReadyAnswer)),
        );
        break;
      case 'SKIP_WAITING':
        // update.ts
        break;
    }
  });
}
