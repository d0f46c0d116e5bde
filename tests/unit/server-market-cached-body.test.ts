import { describe, expect, it } from 'vitest';
import { pickEncoding } from '../../server/platform/http/cached-body';

describe('pickEncoding', () => {
  it('prefers br, then gzip, else none', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('deflate')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
    expect(pickEncoding(['gzip', 'br'])).toBe('br');
  });

  it('refuses an encoding given q=0 and ignores case and spaces', () => {
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('BR ; q=0.5')).toBe('br');
    expect(pickEncoding('br;q=0, gzip;q=0')).toBe('identity');
  });
});
