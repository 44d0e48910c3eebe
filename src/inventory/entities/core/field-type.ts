/** Value kinds of custom fields on entities and templates. */
export const FIELD_TYPES = ['text', 'number', 'boolean', 'time'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
