import { Injectable } from '@nestjs/common';
import type { CurrencyDto } from './currency.dto.js';

/**
 * The ISO 4217 currencies the runtime knows (Intl), with English names, a representative
 * symbol, the country they are named after and their minor-unit digits; sorted by name.
 */
@Injectable()
export class CurrenciesService {
  private readonly currencies: CurrencyDto[] = buildCurrencies();
  private readonly codes = new Set(this.currencies.map((currency) => currency.code));

  list(): CurrencyDto[] {
    return this.currencies;
  }

  /** The canonical (upper-case) code, or undefined when the code is not a known currency. */
  normalise(code: string): string | undefined {
    const upper = code.trim().toUpperCase();
    return this.codes.has(upper) ? upper : undefined;
  }
}

function buildCurrencies(): CurrencyDto[] {
  const names = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });
  const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const list: CurrencyDto[] = [];
  for (const code of Intl.supportedValuesOf('currency')) {
    const name = names.of(code);
    if (!name) continue;
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    const symbol =
      new Intl.NumberFormat('en', {
        style: 'currency',
        currency: code,
        currencyDisplay: 'narrowSymbol',
      })
        .formatToParts(0)
        .find((part) => part.type === 'currency')?.value ?? code;
    let local: string;
    try {
      local = regions.of(code.slice(0, 2)) ?? '';
    } catch {
      local = '';
    }
    list.push({
      code,
      name,
      local,
      symbol,
      decimals: format.resolvedOptions().maximumFractionDigits ?? 2,
    });
  }
  return list.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}
