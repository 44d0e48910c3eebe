import { Transform } from 'class-transformer';
import { registerDecorator, type ValidationOptions } from 'class-validator';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

const valid = (year: number, month: number, day: number): boolean => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
};

const format = (year: number, month: number, day: number): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * A calendar date as `YYYY-MM-DD`, read from `YYYY-MM-DD`, `MM/DD/YYYY` or an RFC 3339 timestamp
 * (its time dropped). `''` and null mean "no date". Returns undefined for anything else.
 */
export function parseCalendarDate(value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  let match = ISO_DATE.exec(text) ?? RFC3339.exec(text);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    return valid(year, month, day) ? format(year, month, day) : undefined;
  }
  match = US_DATE.exec(text);
  if (match) {
    const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    return valid(year, month, day) ? format(year, month, day) : undefined;
  }
  return undefined;
}

/**
 * Validates and normalises a calendar-date property: after it, the value is `YYYY-MM-DD` or
 * null. Absent stays absent.
 */
export function CalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) => {
      if (value === undefined) return undefined;
      const parsed = parseCalendarDate(value);
      return parsed === undefined ? { invalidCalendarDate: value } : parsed;
    })(target, propertyName);
    registerDecorator({
      name: 'calendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a date as YYYY-MM-DD, MM/DD/YYYY or RFC 3339`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          value === undefined ||
          value === null ||
          (typeof value === 'string' && ISO_DATE.test(value)),
      },
    });
  };
}
