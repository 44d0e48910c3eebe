import { html } from './page-html.js';
import { alert, page } from './page-layout.js';
import { PAGE_PATHS } from './page-paths.js';

export const SWAGGER_UI_PATH = '/swagger';
export const OPENAPI_DOCUMENT_PATH = '/swagger/openapi.json';
export const OIDC_START_PATH = '/api/v1/users/login/oidc';

/** What the sign-in page offers, from the configuration. */
export interface SignInOptions {
  localLogin: boolean;
  registration: boolean;
  /** The single sign-on button's text, when single sign-on is on. */
  oidcButton: string | undefined;
}

export interface SignInView extends SignInOptions {
  message?: string;
  /** The e-mail address typed before a failed attempt. */
  email?: string;
  /** Where to go once signed in, when it is not the signed-in page (a console page). */
  next?: string;
}

export interface RegisterView {
  message?: string;
  problems?: string[];
  name?: string;
  email?: string;
}

export interface HomeView {
  name: string;
  email: string;
  groups: { name: string; role: string }[];
  version: string;
}

/** The single sign-on start, asked to come back to `next` when there is one. */
const oidcStart = (next: string | undefined): string =>
  next === undefined ? OIDC_START_PATH : `${OIDC_START_PATH}?next=${encodeURIComponent(next)}`;

export function signInPage(view: SignInView): string {
  const next =
    view.next === undefined
      ? undefined
      : html`<input type="hidden" name="next" value="${view.next}" />`;
  const local = view.localLogin
    ? html`<form method="post" action="${PAGE_PATHS.signInForm}">
        ${next}
        <label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value="${view.email ?? ''}"
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <label class="check"
          ><input type="checkbox" name="remember" value="true" /> Keep me signed in for 28
          days</label
        >
        <button type="submit">Sign in</button>
      </form>`
    : undefined;
  const oidc =
    view.oidcButton === undefined
      ? undefined
      : html`${local ? html`<p class="or">or</p>` : ''}<a
            class="button${local ? ' secondary' : ''}"
            href="${oidcStart(view.next)}"
            >${view.oidcButton}</a
          >`;
  const register =
    view.localLogin && view.registration
      ? html`<p class="or">No account yet? <a href="${PAGE_PATHS.register}">Register</a></p>`
      : undefined;
  const none =
    !view.localLogin && view.oidcButton === undefined
      ? html`<p>Signing in is not enabled on this server. Ask its administrator.</p>`
      : undefined;
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
      ${alert(view.message)}${local}${oidc}${register}${none}`,
  );
}

export function registerPage(view: RegisterView): string {
  const problems =
    view.problems && view.problems.length > 0
      ? html`<ul class="alert" role="alert">
          ${view.problems.map((problem) => html`<li>${problem}</li>`)}
        </ul>`
      : undefined;
  return page(
    'Register',
    html`<h1>Create an account</h1>
      ${alert(view.message)}${problems}
      <form method="post" action="${PAGE_PATHS.register}">
        <label for="name">Name</label>
        <input
          id="name"
          name="name"
          type="text"
          autocomplete="name"
          required
          maxlength="255"
          value="${view.name ?? ''}"
        />
        <label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="255"
          value="${view.email ?? ''}"
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="8"
          maxlength="1024"
        />
        <button type="submit">Register and sign in</button>
      </form>
      <p class="or">Have an account? <a href="${PAGE_PATHS.signIn}">Sign in</a></p>`,
  );
}

export function homePage(view: HomeView): string {
  const groups =
    view.groups.length === 0
      ? html`<p class="muted">You belong to no group yet.</p>`
      : html`<table>
          <thead>
            <tr>
              <th>Group</th>
              <th>Your role</th>
            </tr>
          </thead>
          <tbody>
            ${view.groups.map(
              (group) =>
                html`<tr>
                  <td>${group.name}</td>
                  <td>${group.role}</td>
                </tr>`,
            )}
          </tbody>
        </table>`;
  return page(
    'Signed in',
    html`<h1>Signed in as ${view.name}</h1>
      <p class="muted">${view.email}</p>
      <h2>Your groups</h2>
      ${groups}
      <h2>The API</h2>
      <ul class="links">
        <li>
          <a href="${SWAGGER_UI_PATH}">Swagger UI</a>: explore and try every operation, signed in as
          you
        </li>
        <li>
          <a href="${OPENAPI_DOCUMENT_PATH}">The OpenAPI document</a>, for scripts and generated
          clients
        </li>
      </ul>
      <h2>The full web UI</h2>
      <p>
        Trove serves Homebox's web UI at this address when <code>TROVE_WEB_UI_DIR</code> names a
        build of it. In Trove's directory, <code>npm run web-ui</code> builds one into
        <code>./web-ui</code>; start Trove with <code>TROVE_WEB_UI_DIR=./web-ui</code>. The Docker
        image has it built in.
      </p>
      <form method="post" action="${PAGE_PATHS.signOutForm}">
        <button type="submit" class="secondary">Sign out</button>
      </form>
      <footer>Trove ${view.version}</footer>`,
    true,
  );
}

/** A page that only says what went wrong (a refused form, an unavailable database). */
export function messagePage(title: string, message: string): string {
  return page(
    title,
    html`<h1>${title}</h1>
      ${alert(message)}
      <p><a href="${PAGE_PATHS.signIn}">Back to the sign-in page</a></p>`,
  );
}
