/**
 * Control characters: refused in every field with a clear VALIDATION before any quota is spent, and never
 * printed raw to the operator (text stored before the rule is escaped).
 */
import { describe, expect, it } from 'vitest';
import { printable, runOperatorCommand } from '../../server/cli/commands';
import { SERVICE_MESSAGES_PER_HOUR } from '../../server/content/customer-service';
import { api, data, dbTargets, register, startStation } from './helpers/station';

describe.each(dbTargets)('control characters (%s)', (db) => {
  it('refuses them in a free-text field, NUL included, without spending the quota (more refusals than it allows)', async () => {
    const station = await startStation({ db });
    try {
      const user = await register(api(station.url));
      const refused = ['hi\u0000there', '\u001b[2J\u001b]0;owned\u0007', 'x\u202eevil', 'a\u009bb'];
      // More refused calls than the hourly quota: had any of them spent it, the valid message below would be
      // RATE_LIMITED.
      for (let i = 0; i <= SERVICE_MESSAGES_PER_HOUR; i++) {
        const content = refused[i % refused.length]!;
        const res = await user.client.withLang('en').post('/user/service/send.do', { content });
        expect(res.http).toBe(400);
        expect(res.body).toMatchObject({
          code: 'VALIDATION',
          fields: { content: expect.stringMatching(/control/) },
        });
      }
      // Line breaks and tabs are text; the quota was not spent by the refused calls.
      data(await user.client.post('/user/service/send.do', { content: 'line one\nline two\tend' }));
      const rows = await station.app.db.selectFrom('service_messages').select('content').execute();
      expect(rows.map((r) => r.content)).toEqual(['line one\nline two\tend']);
    } finally {
      await station.close();
    }
  });

  it('escapes what the operator is shown', async () => {
    const station = await startStation({ db });
    try {
      const user = await register(api(station.url));
      // A message stored before the rule (written straight to the table).
      data(await user.client.post('/user/service/send.do', { content: 'hello' }));
      await station.app.db
        .updateTable('service_messages')
        .set({ content: 'clear\u001b[2J title\u001b]0;x\u0007 rtl\u202e' })
        .execute();
      const lines: string[] = [];
      await runOperatorCommand(station.app.station, 'service-inbox', [], (l) => lines.push(l), 'tester');
      const out = lines.join('\n');
      expect(out).toContain('clear\\x1b[2J title\\x1b]0;x\\x07 rtl\\u202e');
      // eslint-disable-next-line no-control-regex -- none may reach the terminal
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    } finally {
      await station.close();
    }
  });
});

describe('printable', () => {
  it('keeps text and line breaks, escapes control characters visibly', () => {
    expect(printable('a\tb\nc')).toBe('a\tb\nc');
    expect(printable('\u0000\u001b\u007f\u0085\u2066')).toBe('\\x00\\x1b\\x7f\\x85\\u2066');
  });

  it('escapes a lone carriage return, the direction marks and the line separators; keeps CRLF', () => {
    expect(printable('line one\r\nline two')).toBe('line one\r\nline two');
    expect(printable('paid 0\rpaid 9999')).toBe('paid 0\\x0dpaid 9999');
    expect(printable('a\r')).toBe('a\\x0d');
    expect(printable('\u200eL\u200fR\u2028S\u2029P')).toBe('\\u200eL\\u200fR\\u2028S\\u2029P');
  });
});

describe.each(dbTargets)('free text the fields accept, shown to the operator (%s)', (db) => {
  it('shows a lone carriage return and the direction marks of a message escaped', async () => {
    const station = await startStation({ db });
    try {
      const user = await register(api(station.url));
      const content = 'refund 10\rrefund 99999 \u200fevil\u2028fake line';
      data(await user.client.post('/user/service/send.do', { content }));
      const lines: string[] = [];
      // The thread shows the whole text (the inbox only a one-line preview).
      const userId = String(user.user.id);
      await runOperatorCommand(
        station.app.station,
        'service-thread',
        [userId],
        (l) => lines.push(l),
        'tester',
      );
      const out = lines.join('\n');
      expect(out).toContain('refund 10\\x0drefund 99999 \\u200fevil\\u2028fake line');
      expect(out).not.toMatch(/[\r\u200e\u200f\u2028\u2029]/);
    } finally {
      await station.close();
    }
  });
});
