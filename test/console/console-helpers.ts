import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

/** A console page as the member sees it (their session cookie, as a browser sends it). */
export function getPage(trove: TestApp, session: Session, path: string) {
  return trove.http.get(path).set('Cookie', cookiesOf(session));
}

/** A console form posted from Trove's own origin, as a browser sends it. */
export function postForm(
  trove: TestApp,
  session: Session,
  path: string,
  form: Record<string, string>,
  origin = trove.baseUrl,
) {
  return trove.http
    .post(path)
    .set('Cookie', cookiesOf(session))
    .set('Origin', origin)
    .type('form')
    .send(form);
}

/** The session cookies the sign-in pages set for this member. */
export const cookiesOf = (session: Session): string[] => [
  `hb.auth.token=${session.token}`,
  'hb.auth.remember=false',
];

/** A page's text as a reader sees it: no markup, white space folded. */
export function textOf(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** The `?done=` notice a form's redirect carries, decoded. */
export function doneOf(location: string | undefined): string | null {
  return new URL(location ?? '', 'http://x').searchParams.get('done');
}

/** The rows of the page's tables, each as its cells' text. */
export function tableRows(html: string): string[][] {
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map(([, row]) => [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)].map(([, cell]) => textOf(cell)))
    .filter((cells) => cells.length > 0);
}
