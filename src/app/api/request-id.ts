/**
 * A client-made UUID for every call that moves money or positions (API.md "Idempotency"): the station
 * executes a given requestId once per user, so a retry on a flaky network cannot double an order.
 */
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

/** The requestIds of one kind of change on a screen: one per user intent (API.md "Idempotency"). */
export interface IntentIds {
  /** The id for this input: the same as the last attempt's while the input is the same and unsettled. */
  idFor(input: unknown): string;
  /** The intent is over (answered, refused or abandoned): the next attempt is a new intent. */
  settle(): void;
}

/**
 * One place that decides when a requestId is reused: a retry of the same input after no answer reuses it,
 * so a flaky network cannot make the station do it twice; a changed input or a settled intent gets a
 * fresh one. The mutations of station-query.ts settle it on an answer or a refusal.
 */
export function intentIds(): IntentIds {
  let current: { key: string; id: string } | null = null;
  return {
    idFor(input) {
      const key = JSON.stringify(input);
      if (current?.key !== key) current = { key, id: newRequestId() };
      return current.id;
    },
    settle() {
      current = null;
    },
  };
}
