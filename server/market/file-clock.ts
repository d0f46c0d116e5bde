/**
 * A clock read from a file (CLOCK_FILE, test-only): the file holds epoch milliseconds or an ISO time, and
 * every `now()` reads it again, so a test pins and moves the time of several station processes at once by
 * rewriting one file (atomically: write a temporary file, then rename it over the old one). The file is read
 * on every call on purpose: nothing is cached by wall time, so what a process sees never depends on timing.
 */
import { readFileSync } from 'node:fs';
import type { Clock } from './clock';

/** Parses a clock file's text: epoch milliseconds, or a time `Date` understands. */
export function parseClockText(text: string): number {
  const raw = text.trim();
  const ms = /^\d+$/.test(raw) ? Number(raw) : new Date(raw).getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`clock file: not a time: "${raw.slice(0, 40)}"`);
  return ms;
}

export class FileClock implements Clock {
  private last: number;

  constructor(readonly file: string) {
    this.last = parseClockText(readFileSync(file, 'utf8'));
  }

  now(): number {
    try {
      this.last = parseClockText(readFileSync(this.file, 'utf8'));
    } catch {
      // Mid-rename or unreadable for a moment: the last time read stands (it never goes back by itself).
    }
    return this.last;
  }
}
