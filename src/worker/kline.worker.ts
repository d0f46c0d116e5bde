/**
 * The K-line worker: shapes bars and computes indicators off the main thread (design card). It exposes
 * one services object through Comlink; the page reaches it only through src/app/chart/bridge.ts.
 */
import * as Comlink from 'comlink';
import { shapeKline } from './kline-shape';
import type { KlineRequest, KlineSeries } from './kline-types';

const services = {
  /** Candles, volume and MA lines from bar columns (transferred typed arrays). */
  shapeKline(request: KlineRequest): KlineSeries {
    return shapeKline(request);
  },
};

Comlink.expose(services);

export type KlineServices = typeof services;
