import { describe, expect, it } from 'vitest';
import { safeImageSrc } from '../../src/app/components/safe-href';

describe('safeImageSrc', () => {
  it('keeps https addresses and paths on this site', () => {
    expect(safeImageSrc('/icons/banner-1.avif')).toBe('/icons/banner-1.avif');
    expect(safeImageSrc(' https://cdn.example/b.webp ')).toBe('https://cdn.example/b.webp');
  });

  it('refuses other sites, other schemes, absent values and what would split a srcset', () => {
    for (const bad of [
      undefined,
      '',
      'http://cdn.example/b.png',
      '//evil.example/a.avif',
      '/\\evil.example/a.avif',
      'javascript:alert(1)',
      'data:image/avif;base64,AAAA',
      'mailto:x@example.com',
      '/icons/a.avif 2x',
    ])
      expect(safeImageSrc(bad), String(bad)).toBeNull();
  });
});
