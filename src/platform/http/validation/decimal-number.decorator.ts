import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Digits after the decimal point of a finite number as JavaScript writes it, exponent included
 * (`1.25` → 2, `5e-7` → 7, `1.5e-7` → 8, `1e21` → 0).
 */
export function decimalPlaces(value: number): number {
  const [mantissa, exponent = '0'] = value.toString().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(fraction.length - Number(exponent), 0);
}

/**
 * A finite number with at most `maxDecimalPlaces` decimals. Replaces class-validator's
 * `@IsNumber({ maxDecimalPlaces })`, which throws on numbers JavaScript writes with an exponent
 * (`1e-7`), so such a value was a 500 instead of a 422.
 */
export const IsDecimalNumber = (
  maxDecimalPlaces: number,
  options?: ValidationOptions,
): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isDecimalNumber',
      constraints: [maxDecimalPlaces],
      validator: {
        validate: (value: unknown): boolean =>
          typeof value === 'number' &&
          Number.isFinite(value) &&
          decimalPlaces(value) <= maxDecimalPlaces,
        defaultMessage: (args) =>
          `${args?.property ?? 'value'} must be a number with at most ${maxDecimalPlaces} decimal places`,
      },
    },
    options,
  );
