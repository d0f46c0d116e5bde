/** The tables of migration 0018-history (real history imported from CSV files). Times in ms, prices major. */
import type { Currency, StockMarket } from '../../../src/shared/api/types';

/** An imported instrument outside the catalogue. */
export interface HistoryInstrumentsTable {
  code: string;
  market: StockMarket;
  name: string;
  currency: Currency;
  updated_at: number;
}

/** One trading day's bar of an instrument; `day` is the exchange's local day number (sessions.ts). */
export interface HistoryDayBarsTable {
  code: string;
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** One minute's bar: `t` is the minute's start (epoch ms), `day` its trading day. */
export interface HistoryMinuteBarsTable {
  code: string;
  t: number;
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Migration 0019-replay: the replay's clock, one row named 'replay'. */
export interface ReplayStateTable {
  name: string;
  replay_from: string;
  speed: number;
  market_ms: number;
  wall_ms: number;
  /** 1 while paused. */
  paused: number;
  updated_at: number;
}
