import type { useI18nContext } from '../../../locales/i18n-react';

type Translations = ReturnType<typeof useI18nContext>['LL'];

/** A line's name in the readout and the crosshair: "MA5", "DIF", "RSI6", "Avg price". */
export function lineNamer(LL: Translations): (key: string) => string {
  return (key) => {
    const match = /^([a-zA-Z]+?)(\d+)$/.exec(key);
    if (match) {
      const [, base, n] = match;
      if (base === 'ma') return LL.chart.line.ma({ n: n! });
      if (base === 'ema') return LL.chart.line.ema({ n: n! });
      if (base === 'rsi') return LL.chart.line.rsi({ n: n! });
      if (base === 'volMa') return LL.chart.line.volMa({ n: n! });
    }
    switch (key) {
      case 'bollMid':
        return LL.chart.line.bollMid();
      case 'bollUpper':
        return LL.chart.line.bollUpper();
      case 'bollLower':
        return LL.chart.line.bollLower();
      case 'avg':
        return LL.chart.line.avg();
      case 'price':
        return LL.chart.readout.price();
      default:
        return key.toUpperCase();
    }
  };
}
