/**
 * A module imported on its first use instead of at start-up, so that an instance that never
 * needs it does not hold its code in memory: the S3 client on local disk, the image library
 * until a photo or label is made, the mail library until a mail is sent (the list is in
 * docs/loading.md). Imported once; later calls share the first import. Types come from
 * `import type`, which costs nothing at run time.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

/** sharp (libvips), for thumbnails, labels and QR codes. */
export const sharpModule = onFirstUse(async () => (await import('sharp')).default);

/** nodemailer, for password-reset mail and SMTP notifiers. */
export const nodemailerModule = onFirstUse(async () => (await import('nodemailer')).default);

/** file-type, which recognises uploaded files and product images by their first bytes. */
export const fileTypeModule = onFirstUse(() => import('file-type'));
