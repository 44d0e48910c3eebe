import { Transform } from 'class-transformer';
import { registerDecorator, type ValidationOptions } from 'class-validator';

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const daysInMonth = (year: number, month: number): number => {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
};

/**
 * The instant an RFC 3339 timestamp names (`2026-01-31T09:30:00Z`, `...+02:00`, with optional
 * fractional seconds), or undefined when the text is not one or a part is out of range
 * (`2026-02-30`, hour 24): JavaScript's own parser would roll those over silently.
 */
export function parseTimeValue(text: string): Date | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const inRange =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    (match[7] === undefined || (Number(match[7]) <= 23 && Number(match[8]) <= 59));
  if (!inRange) return undefined;
  const date = new Date(text.toUpperCase().replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * A custom-field time: an RFC 3339 timestamp, or null (`""` counts as null) for none. Absent
 * stays absent.
 */
export function TimeValue(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value))(
      target,
      propertyName,
    );
    registerDecorator({
      name: 'timeValue',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be an RFC 3339 timestamp such as 2026-01-31T09:30:00Z, or null`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          value === undefined ||
          value === null ||
          (typeof value === 'string' && parseTimeValue(value) !== undefined),
      },
    });
  };
}
