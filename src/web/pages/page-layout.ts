import { html, type SafeHtml } from './page-html.js';
import { PAGE_PATHS } from './page-paths.js';

/** The shell of a page of its own (sign-in, registration, a message): one card, centred. */
export function page(title: string, body: SafeHtml, wide = false): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Trove</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${PAGE_PATHS.stylesheet}">
</head>
<body>
<main${wide ? html` class="wide"` : ''}>
<header><span class="brand">Trove</span><span class="tagline">inventory</span></header>
${body}
</main>
</body>
</html>
`.text;
}

export const alert = (message: string | undefined): SafeHtml | undefined =>
  message === undefined ? undefined : html`<p class="alert" role="alert">${message}</p>`;

/** A page that says what went wrong, with the problems of a form when there are some. */
export function errorPage(title: string, message: string, problems: string[] = []): string {
  const list =
    problems.length === 0
      ? undefined
      : html`<ul class="problems">
          ${problems.map((problem) => html`<li>${problem}</li>`)}
        </ul>`;
  return page(
    title,
    html`<h1>${title}</h1>
      ${alert(message)}${list}
      <p>
        <a href="${PAGE_PATHS.console}">The console</a> · <a href="${PAGE_PATHS.signIn}">Home</a>
      </p>`,
  );
}
