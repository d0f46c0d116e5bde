/** The colour class of a move: red up, green down (the Chinese convention), grey flat. */
export function moveClass(change: number): string {
  if (change > 0) return 'up';
  if (change < 0) return 'down';
  return 'flat';
}
