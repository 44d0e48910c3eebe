import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import {
  USER_ATTACHMENT_TYPES,
  type UserAttachmentType,
} from '../entities/views/attachments/attachment-type.js';
import { safeBaseName, typeFromFileName } from './file-name.js';

/** What an upload's form says, checked. */
export interface UploadFields {
  title: string;
  type: UserAttachmentType;
  primary: boolean;
}

const TRUE_VALUES = new Set(['true', 't', '1', 'yes', 'on']);
const FALSE_VALUES = new Set(['false', 'f', '0', 'no', 'off', '']);

/**
 * Reads the text fields of an upload form. Every problem is reported at once, keyed by field:
 * `file` and `name` are required, `type` must be one a client may give, `primary` a boolean.
 */
export function parseUploadFields(body: unknown, hasFile: boolean): UploadFields {
  const form = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  if (!hasFile) fields.file = 'file is required';

  let title = '';
  if (typeof form.name !== 'string' || form.name.trim() === '') {
    fields.name = 'name is required';
  } else {
    title = safeBaseName(form.name);
    if (title === '') fields.name = 'name must contain a file name';
  }

  let type: UserAttachmentType = typeFromFileName(title);
  if (form.type !== undefined && form.type !== '') {
    if (USER_ATTACHMENT_TYPES.includes(form.type as UserAttachmentType)) {
      type = form.type as UserAttachmentType;
    } else {
      fields.type = `type must be one of the following values: ${USER_ATTACHMENT_TYPES.join(', ')}`;
    }
  }

  let primary = false;
  if (form.primary !== undefined) {
    const value = typeof form.primary === 'string' ? form.primary.trim().toLowerCase() : null;
    if (value !== null && TRUE_VALUES.has(value)) primary = true;
    else if (value === null || !FALSE_VALUES.has(value)) {
      fields.primary = 'primary must be true or false';
    }
  }

  if (Object.keys(fields).length > 0) throw new ValidationFailedException(fields);
  return { title, type, primary };
}
