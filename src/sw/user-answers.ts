/**
 * Reads of the user's own lists (their competitions): network first, like the market lists, but the answer is
 * stored per user, under the key of the session that asked (watchlist-edits.ts userAnswerKey), so no user
 * ever reads another's, and logging out deletes it with the rest of the users' answers.
 */
import { Strategy, type StrategyHandler } from 'workbox-strategies';
import { answerKey } from './api-routes';
import type { DataLayer } from './data-layer';
import { cachedAnswer, successData } from './responses';
import { languageOf, networkFirst, networkOnly } from './strategies';
import { userAnswerKey, userIdentity } from './watchlist-edits';

export class UserNetworkFirst extends Strategy {
  constructor(private readonly layer: DataLayer) {
    super();
  }

  protected override async _handle(request: Request, handler: StrategyHandler): Promise<Response> {
    const identity = userIdentity(request.headers.get('Authorization'));
    // No session: nothing to keep (the station says "please log in first").
    if (identity === null) return networkOnly(this.layer, request, false);
    const key = userAnswerKey(identity, answerKey(new URL(request.url), languageOf(request)));
    return networkFirst(
      this.layer,
      request,
      handler,
      async (response) => {
        const answer = await successData(response);
        if (answer) await (await this.layer.cache()).writeAnswer('config', key, answer.data);
      },
      async () => {
        const entry = await (await this.layer.cache()).readAnswer('config', key).catch(() => undefined);
        return entry && cachedAnswer(entry.data, entry.cachedAt);
      },
    );
  }
}
