import { registerDecorator } from 'class-validator';
import { parseCalendarDate } from '../../../platform/http/validation/calendar-date.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day written exactly as `YYYY-MM-DD`; null and absent pass (no day). */
export function StrictDay(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'strictDay',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a date as YYYY-MM-DD` },
      validator: {
        validate: (value: unknown) =>
          value === undefined ||
          value === null ||
          (typeof value === 'string' && DAY.test(value) && parseCalendarDate(value) === value),
      },
    });
  };
}
