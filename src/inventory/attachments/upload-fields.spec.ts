import { describe, expect, it } from 'vitest';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { parseUploadFields } from './upload-fields.js';

const fieldsOf = (body: unknown, hasFile: boolean): Record<string, string> => {
  try {
    parseUploadFields(body, hasFile);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    return (error as ValidationFailedException).fields;
  }
  throw new Error('expected a validation failure');
};

describe('parseUploadFields', () => {
  it('infers the type from the extension and defaults primary to false', () => {
    expect(parseUploadFields({ name: 'dir/Photo.JPG' }, true)).toEqual({
      title: 'Photo.JPG',
      type: 'photo',
      primary: false,
    });
    expect(parseUploadFields({ name: 'manual.pdf', primary: 'true' }, true)).toEqual({
      title: 'manual.pdf',
      type: 'attachment',
      primary: true,
    });
    expect(parseUploadFields({ name: 'a.png', type: 'receipt', primary: 'False' }, true)).toEqual({
      title: 'a.png',
      type: 'receipt',
      primary: false,
    });
  });

  it('reports every bad field at once', () => {
    expect(fieldsOf(undefined, false)).toEqual({
      file: 'file is required',
      name: 'name is required',
    });
    expect(fieldsOf({ name: '../..', type: 'thumbnail', primary: 'maybe' }, true)).toEqual({
      name: 'name must contain a file name',
      type: 'type must be one of the following values: attachment, photo, manual, warranty, receipt',
      primary: 'primary must be true or false',
    });
    expect(fieldsOf({ name: ['a', 'b'] }, true)).toEqual({ name: 'name is required' });
  });
});
