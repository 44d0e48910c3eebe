const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The base of reset links: `TROVE_OPTIONS_HOSTNAME` (with `https://` when it names no scheme),
 * without a trailing slash; null when no hostname is configured. Never taken from a request.
 */
export function resetLinkBase(configuredHostname: string): string | null {
  const hostname = configuredHostname.trim();
  if (hostname === '') return null;
  return (HAS_SCHEME.test(hostname) ? hostname : `https://${hostname}`).replace(/\/+$/, '');
}

/** `<base>/reset-password?token=<token>`. */
export const resetLink = (base: string, token: string): string =>
  `${base}/reset-password?token=${encodeURIComponent(token)}`;

const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

export const RESET_MAIL_SUBJECT = 'Reset your Trove password';

/** The mail that carries a reset link to the user `name`, as plain text and as HTML. */
export function passwordResetMail(name: string, link: string): ComposedMail {
  const text = [
    `Hello ${name},`,
    '',
    'Someone (hopefully you) asked to reset the password of your Trove account.',
    'Open this link within one hour to choose a new password:',
    '',
    link,
    '',
    'The link works once. Setting a new password signs you out everywhere.',
    'If you did not ask for this, ignore this mail: your password stays as it is.',
    '',
  ].join('\n');
  const html = `<!doctype html>
<html>
  <body>
    <p>Hello ${escapeHtml(name)},</p>
    <p>Someone (hopefully you) asked to reset the password of your Trove account.
      Open this link within one hour to choose a new password:</p>
    <p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
    <p>The link works once. Setting a new password signs you out everywhere.</p>
    <p>If you did not ask for this, ignore this mail: your password stays as it is.</p>
  </body>
</html>
`;
  return { subject: RESET_MAIL_SUBJECT, text, html };
}
