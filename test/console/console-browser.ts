import type { Page } from 'playwright-core';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Signs the member in with Trove's sign-in form, as a person does, going to `next`: the browser
 * then holds the same session cookies as the API's sign-in sets.
 */
export async function signInWithForm(
  page: Page,
  trove: TestApp,
  member: Pick<Session, 'email' | 'password'>,
  next: string,
): Promise<void> {
  await page.goto(`${trove.baseUrl}${next}`);
  await page.waitForURL(/\/sign-in\?next=/);
  await page.getByLabel('E-mail').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}
