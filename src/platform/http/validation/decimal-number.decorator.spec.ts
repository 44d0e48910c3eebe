import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { decimalPlaces, IsDecimalNumber } from './decimal-number.decorator.js';

class Priced {
  @IsDecimalNumber(4)
  price: unknown;
}

const errorsOf = (price: unknown): string[] =>
  validateSync(plainToInstance(Priced, { price })).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );

describe('decimalPlaces', () => {
  it('counts decimals whether or not JavaScript writes an exponent', () => {
    expect(decimalPlaces(0)).toBe(0);
    expect(decimalPlaces(12)).toBe(0);
    expect(decimalPlaces(1.25)).toBe(2);
    expect(decimalPlaces(-0.0001)).toBe(4);
    expect(decimalPlaces(5e-7)).toBe(7);
    expect(decimalPlaces(1.5e-7)).toBe(8);
    expect(decimalPlaces(5e-324)).toBe(324);
    expect(decimalPlaces(1e21)).toBe(0);
    expect(decimalPlaces(1.5e21)).toBe(0);
  });
});

describe('IsDecimalNumber', () => {
  it('accepts finite numbers with few enough decimals', () => {
    expect(errorsOf(0)).toEqual([]);
    expect(errorsOf(19.99)).toEqual([]);
    expect(errorsOf(0.0001)).toEqual([]);
    expect(errorsOf(1e21)).toEqual([]);
  });

  it('refuses tiny numbers written with an exponent instead of throwing', () => {
    const message = 'price must be a number with at most 4 decimal places';
    expect(errorsOf(5e-324)).toEqual([message]);
    expect(errorsOf(1e-7)).toEqual([message]);
    expect(errorsOf(0.00001)).toEqual([message]);
    expect(errorsOf('1')).toEqual([message]);
    expect(errorsOf(null)).toEqual([message]);
  });
});
