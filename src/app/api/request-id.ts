/**
 * The app's one place for requestIds (API.md "Idempotency"): every call that moves money or positions
 * carries a client-made UUID, and the station executes a given requestId once per user, so a retry on a
 * flaky network cannot double an order.
 *
 * A requestId belongs to a user intent: the call and its fields. The same intent sent again (a retry after
 * no answer, or the same order sheet closed and opened again within INTENT_WINDOW_MS) reuses its id; an
 * answer or a refusal from the station settles the intent, so a new confirmation of the same order is a
 * new order. The buy sheet (outcome.ts sendMoneyCall) and every mutation (station-query.ts) use these.
 */
import type { CallKey } from '../../shared/api/calls';

/** A fresh RFC 4122 version-4 UUID. */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID exists only in secure contexts; a phone reaching the station over plain http on a
  // LAN address still needs an id, so build the same RFC 4122 version-4 UUID from getRandomValues.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How long an intent keeps its requestId after its last use, unless the station answered it. */
export const INTENT_WINDOW_MS = 2 * 60_000;

const INTENTS_KEY = 'paperdesk.intents';

interface Intent {
  id: string;
  usedAt: number;
}

/** Kept per tab in sessionStorage (a reload keeps them), in memory where there is none. */
let memoryIntents: Record<string, Intent> = {};

/** The part of the Web Storage API used here (the module also loads in unit tests under Node). */
interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function storage(): KeyValueStore | null {
  try {
    return (globalThis as { sessionStorage?: KeyValueStore }).sessionStorage ?? null;
  } catch {
    return null;
  }
}

function readIntents(): Record<string, Intent> {
  const store = storage();
  if (!store) return memoryIntents;
  try {
    const parsed: unknown = JSON.parse(store.getItem(INTENTS_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, Intent>) : {};
  } catch {
    return {};
  }
}

function writeIntents(intents: Record<string, Intent>): void {
  const store = storage();
  if (!store) {
    memoryIntents = intents;
    return;
  }
  try {
    store.setItem(INTENTS_KEY, JSON.stringify(intents));
  } catch {
    memoryIntents = intents;
  }
}

/** An intent's identity: the call and its fields (the requestId left out), in a stable order. */
export function intentKey(key: CallKey, input: object): string {
  const record = input as Record<string, unknown>;
  const fields = Object.keys(record)
    .filter((name) => name !== 'requestId' && record[name] !== undefined && record[name] !== null)
    .sort()
    .map((name) => [name, record[name]]);
  return JSON.stringify([key, fields]);
}

/** The intent's requestId: the one it had within the window, else a new one. */
export function requestIdFor(intent: string, now = Date.now()): string {
  const intents = readIntents();
  for (const [key, kept] of Object.entries(intents)) {
    if (now - kept.usedAt >= INTENT_WINDOW_MS) delete intents[key];
  }
  const id = intents[intent]?.id ?? newRequestId();
  intents[intent] = { id, usedAt: now };
  writeIntents(intents);
  return id;
}

/** The station answered this intent: a new confirmation of the same order is a new order. */
export function settleIntent(intent: string): void {
  const intents = readIntents();
  if (!(intent in intents)) return;
  delete intents[intent];
  writeIntents(intents);
}

/** The requestIds of one kind of change (one call): one per user intent. */
export interface IntentIds {
  /** The id for this input: the same as before while the same intent is unsettled and within the window. */
  idFor(input: object): string;
  /** The station answered or refused the last intent: the next attempt is a new intent. */
  settle(): void;
}

/** requestIdFor / settleIntent for one call, remembering the last intent so that it can be settled. */
export function intentIds(call: CallKey): IntentIds {
  let last: string | null = null;
  return {
    idFor(input) {
      last = intentKey(call, input);
      return requestIdFor(last);
    },
    settle() {
      if (last !== null) settleIntent(last);
      last = null;
    },
  };
}
