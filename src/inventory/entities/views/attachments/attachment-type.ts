/** Kinds of attachment; `thumbnail` is made by Trove from a photo. */
export const ATTACHMENT_TYPES = [
  'attachment',
  'photo',
  'manual',
  'warranty',
  'receipt',
  'thumbnail',
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** The types a client may give; `thumbnail` is Trove's own. */
export const USER_ATTACHMENT_TYPES = [
  'attachment',
  'photo',
  'manual',
  'warranty',
  'receipt',
] as const satisfies readonly AttachmentType[];
export type UserAttachmentType = (typeof USER_ATTACHMENT_TYPES)[number];

/** The MIME type a link attachment is stored with (its `path` is the URL). */
export const LINK_MIME_TYPE = 'link/url';
