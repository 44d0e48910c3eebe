import { describe, expect, it } from 'vitest';
import { passwordResetMail, resetLink, resetLinkBase } from './password-reset-mail.js';

describe('resetLinkBase', () => {
  it('uses the configured hostname, adding https:// when it names no scheme', () => {
    expect(resetLinkBase('trove.example.com')).toBe('https://trove.example.com');
    expect(resetLinkBase(' http://trove.lan:7745/ ')).toBe('http://trove.lan:7745');
    expect(resetLinkBase('https://example.com/trove//')).toBe('https://example.com/trove');
  });

  it('is null without a hostname', () => {
    expect(resetLinkBase('')).toBeNull();
    expect(resetLinkBase('   ')).toBeNull();
  });
});

describe('resetLink', () => {
  it('puts the token in the query string', () => {
    expect(resetLink('https://trove.example.com', 'abc-_1')).toBe(
      'https://trove.example.com/reset-password?token=abc-_1',
    );
  });
});

describe('passwordResetMail', () => {
  it('carries the link in both parts and escapes the HTML', () => {
    const link = 'https://trove.example.com/reset-password?token=a&b';
    const mail = passwordResetMail('Ada <script>', link);
    expect(mail.subject).toBe('Reset your Trove password');
    expect(mail.text).toContain('Hello Ada <script>,');
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.html).toContain('Hello Ada &lt;script&gt;,');
    expect(mail.html).toContain(
      '<a href="https://trove.example.com/reset-password?token=a&amp;b">',
    );
    expect(mail.html).not.toContain('<script>');
  });
});
