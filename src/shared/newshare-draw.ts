/**
 * The verifiable new-share draw (DOMAIN.md "New share / bond subscription"): who wins is a pure function of
 * the seed and its list of allocation numbers, so anyone holding the published seed can recompute
 * the winners, and the hash published before subscriptions closed shows the seed was fixed beforehand.
 *
 * The algorithm, step by step (the app shows this text and runs this very code):
 * 1. The seed is 32 bytes, written as 64 hex digits. Before the subscription window closes the station
 *    publishes seedHash = SHA-256(seed bytes) in hex; after the draw it publishes the seed.
 * 2. A stream of 32-bit words: block i (i = 0, 1, 2, …) is SHA-256(seed bytes ‖ i as 4 bytes big-endian);
 *    each block gives eight words, read as big-endian unsigned 32-bit integers, in order.
 * 3. randomBelow(n): take the next word w; if w ≥ 2^32 − (2^32 mod n), discard it and take another
 *    (so every remainder is equally likely); answer w mod n.
 * 4. Sort the allocation numbers ascending into a[0…N−1]. For k = 0 … W−1 (W = the lots to give out, at
 *    most N): j = k + randomBelow(N − k), swap a[k] and a[j] (a partial Fisher–Yates shuffle).
 * 5. The winning numbers are a[0…W−1], sorted ascending. When N ≤ W every number wins.
 */
import { bytesToHex, hexToBytes, sha256 } from './sha256';

/** A seed is 32 bytes in 64 lower- or upper-case hex digits. */
export function isDrawSeed(seed: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(seed);
}

/** The commitment published before the draw: SHA-256 of the seed's bytes, lower-case hex. */
export function drawSeedHash(seed: string): string {
  if (!isDrawSeed(seed)) throw new RangeError('a draw seed is 64 hex digits');
  return bytesToHex(sha256(hexToBytes(seed)));
}

/** Step 2: the word stream of a seed. */
function wordStream(seed: string): () => number {
  const seedBytes = hexToBytes(seed);
  const input = new Uint8Array(seedBytes.length + 4);
  input.set(seedBytes);
  const inputView = new DataView(input.buffer);
  let block = 0;
  let words: DataView | null = null;
  let next = 8;
  return () => {
    if (next === 8) {
      inputView.setUint32(seedBytes.length, block++);
      words = new DataView(sha256(input).buffer);
      next = 0;
    }
    return words!.getUint32(4 * next++);
  };
}

/** Step 3: a uniform integer in [0, n) by rejection sampling. */
function randomBelow(nextWord: () => number, n: number): number {
  const range = 2 ** 32;
  const limit = range - (range % n);
  for (;;) {
    const w = nextWord();
    if (w < limit) return w % n;
  }
}

/**
 * Steps 4-5: the winning allocation numbers, ascending. `numbers` may come in any order; `winners` is how
 * many lots the draw gives out.
 */
export function drawWinners(seed: string, numbers: readonly number[], winners: number): number[] {
  if (!isDrawSeed(seed)) throw new RangeError('a draw seed is 64 hex digits');
  if (!Number.isInteger(winners) || winners < 0) throw new RangeError('winners must be a whole number ≥ 0');
  const a = [...numbers].sort((x, y) => x - y);
  const count = Math.min(winners, a.length);
  const nextWord = wordStream(seed);
  for (let k = 0; k < count; k++) {
    const j = k + randomBelow(nextWord, a.length - k);
    [a[k], a[j]] = [a[j]!, a[k]!];
  }
  return a.slice(0, count).sort((x, y) => x - y);
}

/** The allocation numbers of an issue: `count` consecutive numbers from `from`. */
export function allocationNumbers(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}
