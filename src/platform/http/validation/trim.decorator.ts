import { Transform } from 'class-transformer';

/** Trims surrounding white space from a string before it is validated. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
