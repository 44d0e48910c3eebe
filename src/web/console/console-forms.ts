import type { Type } from '@nestjs/common';
import { createValidationPipe } from '../../platform/http/validation/validation.pipe.js';

/** A posted form's fields, each as its text (the last one of a name given twice). */
export type FormValues = Record<string, string>;

/** The text fields of a form body (urlencoded); anything else is left out. */
export function formValues(body: unknown): FormValues {
  const values: FormValues = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const text: unknown = Array.isArray(value) ? (value as unknown[]).at(-1) : value;
    if (typeof text === 'string') values[name] = text;
  }
  return values;
}

/** A field's text, or undefined when it is missing or empty. */
export function textField(form: FormValues, name: string): string | undefined {
  const value = form[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A field as a number (`NaN` for text that is none, which the validation then names). */
export function numberField(form: FormValues, name: string): number | undefined {
  const value = textField(form, name);
  return value === undefined ? undefined : Number(value.trim());
}

/**
 * The values checked as the API checks its body of that type (the same DTO and validation pipe):
 * a 422 naming each field that is wrong, which the console's error page lists.
 */
export async function checked<T extends object>(type: Type<T>, values: object): Promise<T> {
  return (await createValidationPipe().transform(values, { type: 'body', metatype: type })) as T;
}
