/**
 * The truth about a lost answer (API.md "Idempotency"). A money call that gets no answer may or may not have
 * reached the station; the app never reports it as a failure. It asks the station what became of that
 * `requestId` (GET /user/request/outcome.do), again with backoff while the link is bad, and then says the real
 * outcome. The `requestId` belongs to the user's intent (request-id.ts, the app's one place for them): the
 * same order sent again within a short window (the sheet closed and opened again) reuses it, so it cannot
 * go twice.
 */
import { observable } from '@legendapp/state';
import type { CallIn, CallKey, CallOut } from '../../shared/api/calls';
import { currentTranslations } from '../i18n/locale';
import { call, toApiError } from './client';
import { ApiError } from './errors';
import { settleIntent } from './request-id';

/** The pauses between questions about a lost answer; the last one repeats while the link stays bad. */
export const OUTCOME_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 15_000];

/** The requestIds whose outcome is being asked for, with their call: what screens may show as pending. */
export const pendingOutcomes$ = observable<Record<string, { call: CallKey; since: number }>>({});

type Outcome = CallOut<'GET /user/request/outcome.do'>;
const checks = new Map<string, Promise<Outcome>>();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Asks the station what became of `requestId` until it answers (with backoff while the link is bad). */
export function checkOutcome(requestId: string, key: CallKey): Promise<Outcome> {
  const running = checks.get(requestId);
  if (running) return running;
  pendingOutcomes$.assign({ [requestId]: { call: key, since: Date.now() } });
  const run = async (): Promise<Outcome> => {
    for (let attempt = 0; ; attempt += 1) {
      await sleep(OUTCOME_DELAYS_MS[Math.min(attempt, OUTCOME_DELAYS_MS.length - 1)]!);
      try {
        return await call('GET /user/request/outcome.do', { requestId });
      } catch (failure) {
        const error = toApiError(failure);
        // Only a missing answer is worth asking again; the station refusing the question is final.
        if (!error.isNetwork && error.code !== 'OFFLINE_NOT_SENT' && error.status < 500) throw error;
      }
    }
  };
  const check = run().finally(() => {
    checks.delete(requestId);
    pendingOutcomes$[requestId]?.delete();
  });
  checks.set(requestId, check);
  return check;
}

/** True when the call may have reached the station and its answer was lost (not "not sent"). */
export function answerLost(error: ApiError): boolean {
  return error.code === 'NETWORK' || error.code === 'TIMEOUT';
}

/** After this long without an answer, the user may stop waiting for a money call and have it looked up. */
export const MONEY_CALL_STALL_MS = 10_000;

/**
 * Money calls on their way with no answer yet, sent without a screen's own way to stop waiting: the shell
 * offers one for all of them once they stall (MONEY_CALL_STALL_MS).
 */
export const waitingMoneyCalls$ = observable<Record<string, { call: CallKey; since: number }>>({});
const stopControls = new Map<string, AbortController>();

function forgetWaiting(requestId: string): void {
  if (!stopControls.delete(requestId)) return;
  waitingMoneyCalls$[requestId]?.delete();
}

/** The user stops waiting for every stalled money call: each is treated as lost and looked up. */
export function stopWaitingForStalledCalls(now = Date.now()): void {
  for (const [requestId, waiting] of Object.entries(waitingMoneyCalls$.peek())) {
    if (now - waiting.since >= MONEY_CALL_STALL_MS) stopControls.get(requestId)?.abort();
  }
}

export interface MoneyCallOptions {
  /** The order's identity (intentKey): its requestId is kept until the station answers it. */
  intent: string;
  /** The user stopped waiting (a stalled call): the answer is treated as lost and looked up. */
  signal?: AbortSignal;
  /** Called when the answer was lost and the station is being asked what became of the call. */
  onChecking?: () => void;
}

/**
 * Sends a money call whose input carries the intent's requestId. The station's answer settles the intent; a
 * lost answer is looked up (checkOutcome): the stored answer is returned as the call's own, "not seen"
 * throws a NETWORK error saying nothing was done, the intent kept so that sending again is the same request.
 */
export async function sendMoneyCall<K extends CallKey>(
  key: K,
  input: CallIn<K> & { requestId: string },
  options: MoneyCallOptions,
): Promise<CallOut<K>> {
  // A call whose screen gives no way to stop waiting can be stopped from the shell's strip (StalledCalls).
  const own = options.signal ? null : new AbortController();
  const signal = options.signal ?? own!.signal;
  if (own) {
    stopControls.set(input.requestId, own);
    waitingMoneyCalls$.assign({ [input.requestId]: { call: key, since: Date.now() } });
  }
  try {
    const answer = await call(key, input, { signal });
    forgetWaiting(input.requestId);
    settleIntent(options.intent);
    return answer;
  } catch (failure) {
    const error = signal.aborted ? new ApiError('NETWORK', '', 0) : toApiError(failure);
    forgetWaiting(input.requestId);
    if (!answerLost(error)) {
      // The station answered (or nothing was sent at all, which keeps the intent's id as good as new).
      if (error.code !== 'OFFLINE_NOT_SENT') settleIntent(options.intent);
      throw error;
    }
    forgetWaiting(input.requestId);
    options.onChecking?.();
    const outcome = await checkOutcome(input.requestId, key);
    if (outcome.seen) {
      settleIntent(options.intent);
      return outcome.answer as CallOut<K>;
    }
    throw new ApiError('NETWORK', currentTranslations().outcome.notDone(), 0);
  }
}
