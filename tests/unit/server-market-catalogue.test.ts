import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogueData, parseCatalogueData } from '../../server/market/catalogue';

const file = new URL('../../server/market/catalogue.json', import.meta.url);
const raw = () =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { instruments: object[] };

describe('the instrument catalogue data file', () => {
  const data = loadCatalogueData();
  const stocks = data.instruments;
  const board = (b: string) => stocks.filter((i) => i.board === b);

  it('is versioned and holds every kind of instrument the issue asks for', () => {
    expect(data.version).toBeGreaterThanOrEqual(2);
    expect(board('main').length).toBeGreaterThanOrEqual(300);
    expect(board('main').filter((i) => i.st).length).toBeGreaterThanOrEqual(3);
    expect(board('star').length + board('chinext').length).toBeGreaterThanOrEqual(60);
    expect(board('chinext').length).toBeGreaterThan(0);
    expect(board('hk').length).toBeGreaterThanOrEqual(100);
    expect(board('us').length).toBeGreaterThanOrEqual(100);
    expect(data.indexes).toHaveLength(12);
    expect(data.futures).toHaveLength(10);
  });

  it('uses real code formats per board and unique codes across stocks, indexes and futures', () => {
    // Shanghai and Shenzhen shares, and the Shanghai ETFs (51xxxx) that trade beside them.
    for (const i of board('main')) expect(i.code).toMatch(/^(60[0135]|00[0123]|51[0-9])\d{3}$/);
    expect(stocks.filter((i) => i.code.startsWith('51')).every((i) => i.tick === 0.001)).toBe(true);
    for (const i of board('star')) expect(i.code).toMatch(/^688\d{3}$/);
    for (const i of board('chinext')) expect(i.code).toMatch(/^30[01]\d{3}$/);
    for (const i of board('hk')) expect(i.code).toMatch(/^\d{5}$/);
    for (const i of board('us')) expect(i.code).toMatch(/^[A-Z]{1,5}$/);
    const codes = [...stocks, ...data.indexes, ...data.futures].map((i) => i.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('gives every instrument a Chinese name, an English name and upper-case pinyin initials', () => {
    for (const i of [...stocks, ...data.indexes, ...data.futures]) {
      expect(i.name).toMatch(/\p{Script=Han}|^[A-Z0-9*]/u);
      expect(i.nameEn).toMatch(/[A-Za-z]/);
      expect(i.pinyin).toMatch(/^[A-Z0-9]+$/);
    }
    expect(stocks.filter((i) => i.st).every((i) => /^\*?ST/.test(i.name))).toBe(true);
  });

  it('keeps the real board lots of Hong Kong and fixed lots elsewhere', () => {
    const lot = (code: string) => stocks.find((i) => i.code === code)?.lotSize;
    expect(['00700', '00005', '01810', '02318', '00388', '00939', '09618', '09866'].map(lot)).toEqual([
      100, 400, 200, 500, 100, 1000, 50, 10,
    ]);
    expect(board('main').every((i) => i.lotSize === 100 && i.currency === 'CNY')).toBe(true);
    expect(board('us').every((i) => i.lotSize === 1 && i.currency === 'USD')).toBe(true);
    expect(board('hk').every((i) => i.tick === 'hkex' && i.currency === 'HKD')).toBe(true);
  });

  it('describes the index futures with their multipliers and CFFEX sessions', () => {
    const f = (code: string) => data.futures.find((x) => x.code === code)!;
    expect(f('IF0')).toMatchObject({ exchange: 'CFFEX', multiplier: 300, tick: 0.2, limit: 0.1 });
    expect(f('IM0')).toMatchObject({ exchange: 'CFFEX', multiplier: 200 });
    expect(f('IF0').sessions).toEqual(['09:30-11:30', '13:00-15:00']);
    expect(f('AU0').sessions).toContain('21:00-02:30');
    const regions = data.indexes.map((i) => i.region);
    expect(regions.filter((r) => r === 'cn').length).toBeGreaterThanOrEqual(5);
    expect(data.indexes.map((i) => i.code)).toEqual(
      expect.arrayContaining(['SH000001', 'SZ399001', 'SZ399006', 'SH000300', 'SH000688', 'HSI', 'HSTECH']),
    );
  });

  it('refuses a file without a version, with a duplicate code or with a ChiNext code on the main board', () => {
    const noVersion = raw();
    delete noVersion.version;
    expect(() => parseCatalogueData(noVersion)).toThrow(/version/);
    const duplicate = raw();
    duplicate.instruments.push({ ...(duplicate.instruments[0] as object) });
    expect(() => parseCatalogueData(duplicate)).toThrow(/duplicate code/);
    const wrongBoard = raw();
    wrongBoard.instruments[0] = { ...(wrongBoard.instruments[0] as object), board: 'chinext' };
    expect(() => parseCatalogueData(wrongBoard)).toThrow(/board chinext is not in market a/);
    const clash = raw();
    (clash.futures as object[])[0] = { ...((clash.futures as object[])[0] as object), code: '600519' };
    expect(() => parseCatalogueData(clash)).toThrow(/duplicate code 600519/);
  });
});
