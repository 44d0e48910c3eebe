import { SetMetadata } from '@nestjs/common';

export const ALLOW_ATTACHMENT_TOKEN_KEY = 'trove:allowAttachmentToken';

/** A route that also accepts the short-lived attachment token (downloads and QR codes). */
export const AllowAttachmentToken = (): MethodDecorator =>
  SetMetadata(ALLOW_ATTACHMENT_TOKEN_KEY, true);
