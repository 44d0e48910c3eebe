import { ValidateBy } from 'class-validator';
import { isAllowedNotifierUrl, NOT_ALLOWED_MESSAGE } from '../delivery/notifier-url.js';

/** A URL with one of the notifier schemes Homebox allows (prefix match). */
export const IsNotifierUrl = (): PropertyDecorator =>
  ValidateBy({
    name: 'isNotifierUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isAllowedNotifierUrl(value),
      defaultMessage: () => NOT_ALLOWED_MESSAGE,
    },
  });
