import type { ApiKeyCreatedDto, ApiKeyDto } from '../../identity/auth/dto/api-key.dto.js';
import type { SessionDto } from '../../identity/auth/dto/session.dto.js';
import type { GroupRole } from '../../identity/auth/group-role.js';
import { html, type SafeHtml } from '../pages/page-html.js';
import {
  consolePage,
  CONSOLE_PATHS,
  doneNotice,
  scrollingTable,
  type ConsoleFrame,
} from './console-layout.js';

export const ACCOUNT_PATHS = {
  endSession: (id: string) => `${CONSOLE_PATHS.account}/sessions/${id}/end`,
  endOtherSessions: `${CONSOLE_PATHS.account}/sessions/end-others`,
  apiKeys: `${CONSOLE_PATHS.account}/api-keys`,
  revokeApiKey: (id: string) => `${CONSOLE_PATHS.account}/api-keys/${id}/revoke`,
} as const;

export interface AccountView {
  name: string;
  email: string;
  groups: { name: string; role: GroupRole }[];
  sessions: SessionDto[];
  apiKeys: ApiKeyDto[];
  /** A key just created: its secret is shown on this one answer only. */
  created?: ApiKeyCreatedDto;
  done?: string;
}

/** An ISO time as a reader takes it in: day and minute, in UTC. */
export const whenText = (iso: string | null, none = '—'): string =>
  iso === null ? none : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const SIGN_INS: Record<SessionDto['signIn'], string> = {
  password: 'Password',
  singleSignOn: 'Single sign-on',
};

function createdKey(created: ApiKeyCreatedDto): SafeHtml {
  return html`<section class="notice" aria-labelledby="new-key-heading">
    <h2 id="new-key-heading">Your new API key “${created.name}”</h2>
    <p><strong>Copy it now: it is not shown again.</strong> Send it as the Authorization header.</p>
    <label for="new-key">The key</label>
    <input id="new-key" type="text" readonly value="${created.token}" autocomplete="off" />
  </section>`;
}

function sessionsTable(sessions: SessionDto[]): SafeHtml {
  if (sessions.length === 0) return html`<p class="muted">No session.</p>`;
  const others = sessions.filter((session) => !session.current);
  return html`${scrollingTable(
    `Your sessions`,
    html`
      <table>
        <caption class="visually-hidden">
          Your sessions
        </caption>
        <thead>
          <tr>
            <th scope="col">Signed in</th>
            <th scope="col">Expires</th>
            <th scope="col">How</th>
            <th scope="col">End</th>
          </tr>
        </thead>
        <tbody>
          ${sessions.map(
            (session) =>
              html`<tr>
                <td>${whenText(session.createdAt)}</td>
                <td>${whenText(session.expiresAt)}</td>
                <td>${SIGN_INS[session.signIn]}</td>
                <td>
                  ${
                    session.current
                      ? html`<strong>This session</strong>`
                      : html`<form method="post" action="${ACCOUNT_PATHS.endSession(session.id)}">
                          <button
                            type="submit"
                            class="small"
                            aria-label="End the session signed in ${whenText(session.createdAt)}"
                          >
                            End
                          </button>
                        </form>`
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    `,
  )}
  ${
    others.length === 0
      ? undefined
      : html`<form method="post" action="${ACCOUNT_PATHS.endOtherSessions}">
          <button type="submit" class="secondary">End all other sessions</button>
        </form>`
  }`;
}

function apiKeysTable(keys: ApiKeyDto[]): SafeHtml {
  if (keys.length === 0) return html`<p class="muted">You have no API key.</p>`;
  return html`${scrollingTable(
    `Your API keys`,
    html`
      <table>
        <caption class="visually-hidden">
          Your API keys
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Revoke</th>
          </tr>
        </thead>
        <tbody>
          ${keys.map(
            (key) =>
              html`<tr>
                <td>${key.name}</td>
                <td>${whenText(key.createdAt)}</td>
                <td>${whenText(key.lastUsedAt, 'never')}</td>
                <td>${whenText(key.expiresAt, 'never')}</td>
                <td>
                  <form method="post" action="${ACCOUNT_PATHS.revokeApiKey(key.id)}">
                    <button type="submit" class="small" aria-label="Revoke the API key ${key.name}">
                      Revoke
                    </button>
                  </form>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    `,
  )}`;
}

/** Your account: who you are, your sign-in sessions and your API keys. */
export function accountPage(frame: ConsoleFrame, view: AccountView): string {
  return consolePage(
    frame,
    'account',
    'Your account',
    html`${doneNotice(view.done)} ${view.created ? createdKey(view.created) : undefined}
      <section aria-labelledby="you">
        <h2 id="you">You</h2>
        <dl>
          <dt>Name</dt>
          <dd>${view.name}</dd>
          <dt>E-mail</dt>
          <dd>${view.email}</dd>
          <dt>Groups</dt>
          <dd>
            ${
              view.groups.length === 0
                ? 'none'
                : html`<ul class="plain">
                    ${view.groups.map((group) => html`<li>${group.name} (${group.role})</li>`)}
                  </ul>`
            }
          </dd>
        </dl>
      </section>
      <section aria-labelledby="sessions">
        <h2 id="sessions">Your sessions</h2>
        <p class="muted">
          Each sign-in is a session until it expires or ends. Ending one signs that browser or
          device out at once.
        </p>
        ${sessionsTable(view.sessions)}
      </section>
      <section aria-labelledby="api-keys">
        <h2 id="api-keys">Your API keys</h2>
        <p class="muted">
          Keys for scripts: they act as you, in every group of yours, until they expire or you
          revoke them.
        </p>
        ${apiKeysTable(view.apiKeys)}
        <h3 id="new-api-key">Create an API key</h3>
        <form method="post" action="${ACCOUNT_PATHS.apiKeys}" aria-labelledby="new-api-key">
          <div class="fields">
            <div>
              <label for="name">Name</label>
              <input id="name" name="name" type="text" maxlength="255" required />
            </div>
            <div>
              <label for="expiresAt">Expires on</label>
              <input id="expiresAt" name="expiresAt" type="date" aria-describedby="expiry-hint" />
            </div>
          </div>
          <p id="expiry-hint" class="muted">
            At the start of that day (UTC); left empty, in 30 days.
          </p>
          <label class="check"
            ><input type="checkbox" name="never" value="true" /> Never expires</label
          >
          <button type="submit">Create the key</button>
        </form>
      </section>`,
  );
}
