import type { AdminGroupPageDto } from '../../identity/admin/dto/admin-group.dto.js';
import type { AdminStatusDto } from '../../identity/admin/dto/admin-status.dto.js';
import type { AdminUserPageDto } from '../../identity/admin/dto/admin-user.dto.js';
import type {
  InstanceBackupDto,
  InstanceBackupPageDto,
} from '../../operations/instance-backups/dto/instance-backup.dto.js';
import type { CurrencyDto } from '../../identity/currencies/currency.dto.js';
import type { GroupDto } from '../../identity/groups/dto/group.dto.js';
import {
  INVITATION_ROLES,
  type GroupInvitationCreatedDto,
  type GroupInvitationDto,
} from '../../identity/groups/dto/group-invitation.dto.js';
import type { GroupMemberDto } from '../../identity/groups/dto/group-member.dto.js';
import { GROUP_ROLES } from '../../identity/auth/group-role.js';
import { html, type SafeHtml } from '../pages/page-html.js';
import {
  consolePage,
  CONSOLE_PATHS,
  doneNotice,
  pager,
  withQuery,
  type ConsoleFrame,
  scrollingTable,
} from './console-layout.js';

export const ADMIN_PATHS = {
  overview: CONSOLE_PATHS.admin,
  group: `${CONSOLE_PATHS.admin}/group`,
  member: (id: string) => `${CONSOLE_PATHS.admin}/members/${id}`,
  invitations: `${CONSOLE_PATHS.admin}/invitations`,
  invitation: (id: string) => `${CONSOLE_PATHS.admin}/invitations/${id}`,
  users: `${CONSOLE_PATHS.admin}/users`,
  user: (id: string) => `${CONSOLE_PATHS.admin}/users/${id}`,
  groups: `${CONSOLE_PATHS.admin}/groups`,
  backups: `${CONSOLE_PATHS.admin}/backups`,
} as const;

/** What the administration overview shows: the group's part to its owners, the instance's part to instance administrators. */
export interface AdminView {
  /** The caller's group, its members and invitations (owners only). */
  group?: {
    group: GroupDto;
    members: GroupMemberDto[];
    invitations: GroupInvitationDto[];
    currencies: CurrencyDto[];
    selfId: string;
  };
  /** How people get in (instance administrators only). */
  status?: AdminStatusDto;
  done?: string;
}

const yesNo = (on: boolean): string => (on ? 'on' : 'off');

function groupSection(frame: ConsoleFrame, part: NonNullable<AdminView['group']>): SafeHtml {
  const { group, members, invitations, currencies, selfId } = part;
  const memberRows = members.map(
    (member) =>
      html`<tr>
        <td>
          ${member.name}${member.id === selfId ? html` <span class="muted">(you)</span>` : ''}
        </td>
        <td>${member.email}</td>
        <td>${member.disabled ? 'disabled' : 'active'}</td>
        <td>
          <form method="post" action="${ADMIN_PATHS.member(member.id)}/role" class="inline">
            <div>
              <label for="role-${member.id}" class="visually-hidden">Role of ${member.name}</label>
              <select id="role-${member.id}" name="role">
                ${GROUP_ROLES.map(
                  (role) =>
                    html`<option value="${role}" ${role === member.role ? html` selected` : ''}>
                      ${role}
                    </option>`,
                )}
              </select>
            </div>
            <button type="submit" class="small">Save</button>
          </form>
        </td>
        <td>
          ${
            member.id === selfId
              ? html`<span class="muted">—</span>`
              : html`<form method="post" action="${ADMIN_PATHS.member(member.id)}/remove">
                  <button type="submit" class="small secondary">
                    Remove ${member.name} from the group
                  </button>
                </form>`
          }
        </td>
      </tr>`,
  );
  const invitationRows = invitations.map(
    (invitation) =>
      html`<tr>
        <td>${invitation.role}</td>
        <td>${invitation.uses}</td>
        <td>${invitation.expiresAt.slice(0, 16).replace('T', ' ')} UTC</td>
        <td>
          <form method="post" action="${ADMIN_PATHS.invitation(invitation.id)}/delete">
            <button type="submit" class="small secondary">Delete this invitation</button>
          </form>
        </td>
      </tr>`,
  );
  return html`<section aria-labelledby="group-settings">
      <h2 id="group-settings">The group: ${group.name}</h2>
      <form method="post" action="${ADMIN_PATHS.group}">
        <div class="fields">
          <div>
            <label for="group-name">Name</label>
            <input
              id="group-name"
              name="name"
              type="text"
              value="${group.name}"
              maxlength="255"
              required
            />
          </div>
          <div>
            <label for="group-currency">Currency of its prices</label>
            <select id="group-currency" name="currency">
              ${currencies.map(
                (currency) =>
                  html`<option
                    value="${currency.code}"
                    ${currency.code === group.currency ? html` selected` : ''}
                  >
                    ${currency.code} · ${currency.name}
                  </option>`,
              )}
            </select>
          </div>
        </div>
        <button type="submit">Save the group</button>
      </form>
    </section>
    <section aria-labelledby="members">
      <h2 id="members">Members</h2>
      ${scrollingTable(
        `Members of ${group.name}`,
        html`
          <table>
            <caption class="visually-hidden">
              Members of ${group.name}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Account</th>
                <th scope="col">Role</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              ${memberRows}
            </tbody>
          </table>
        `,
      )}
      <p class="muted">
        Owners change everything, users change the inventory, viewers only read. The last owner
        cannot be demoted; removing a member keeps what they changed.
      </p>
    </section>
    <section aria-labelledby="invitations">
      <h2 id="invitations">Invitations</h2>
      ${
        invitations.length === 0
          ? html`<p class="muted">No invitation can be used now.</p>`
          : html`${scrollingTable(
              `Invitations that can still be used`,
              html`
                <table>
                  <caption class="visually-hidden">
                    Invitations that can still be used
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Role</th>
                      <th scope="col">Uses left</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Delete</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${invitationRows}
                  </tbody>
                </table>
              `,
            )}`
      }
      <h3>Invite people</h3>
      <form method="post" action="${ADMIN_PATHS.invitations}">
        <div class="fields">
          <div>
            <label for="invite-role">Role of those who join</label>
            <select id="invite-role" name="role">
              ${INVITATION_ROLES.map((role) => html`<option value="${role}">${role}</option>`)}
            </select>
          </div>
          <div>
            <label for="invite-uses">How many people may join with it</label>
            <input
              id="invite-uses"
              name="uses"
              type="number"
              min="1"
              max="100"
              value="1"
              required
            />
          </div>
          <div>
            <label for="invite-expires">Valid until the end of (UTC)</label>
            <input
              id="invite-expires"
              name="expiresOn"
              type="date"
              aria-describedby="invite-hint"
            />
          </div>
        </div>
        <p id="invite-hint" class="muted">Without a day it is valid for 24 hours.</p>
        <button type="submit">Create an invitation</button>
      </form>
    </section>`;
}

function statusSection(status: AdminStatusDto): SafeHtml {
  return html`<section aria-labelledby="instance">
    <h2 id="instance">The instance</h2>
    <p>
      <a href="${ADMIN_PATHS.users}">Every user</a> ·
      <a href="${ADMIN_PATHS.groups}">Every group</a> ·
      <a href="${ADMIN_PATHS.backups}">Instance backups</a>
    </p>
    <dl>
      <dt>Single sign-on</dt>
      <dd>
        ${
          status.sso.configured
            ? html`on, with
              ${status.sso.issuer}${
                status.sso.sharedGroup ? html` (shared group: ${status.sso.sharedGroup})` : ''
              }`
            : 'not configured'
        }
      </dd>
      <dt>SCIM provisioning</dt>
      <dd>${status.scim.configured ? 'on, at /scim/v2' : 'not configured'}</dd>
      <dt>Sign-in with a password</dt>
      <dd>${yesNo(status.localLogin)}</dd>
      <dt>Registration without an invitation</dt>
      <dd>${status.registration ? 'open' : 'closed'}</dd>
      <dt>Addresses in TROVE_ADMIN_EMAILS</dt>
      <dd>${status.adminEmails}</dd>
    </dl>
  </section>`;
}

/** Administration: the group's members, invitations and settings, and the instance's state. */
export function adminPage(frame: ConsoleFrame, view: AdminView): string {
  return consolePage(
    frame,
    'admin',
    'Administration',
    html`${doneNotice(view.done)}${view.group ? groupSection(frame, view.group) : ''}${
      view.status ? statusSection(view.status) : ''
    }`,
  );
}

/** The invitation just created, with its token: shown this once. */
export function invitationCreatedPage(
  frame: ConsoleFrame,
  invitation: GroupInvitationCreatedDto,
  role: string,
): string {
  return consolePage(
    frame,
    'admin',
    'Invitation created',
    html`<p role="status">
        An invitation for ${invitation.uses} ${invitation.uses === 1 ? 'person' : 'people'} as
        ${role}, valid until ${invitation.expiresAt.slice(0, 16).replace('T', ' ')} UTC.
      </p>
      <p>
        <label for="invitation-token"
          >Its token (shown only now: copy it and send it to them)</label
        >
        <input id="invitation-token" type="text" value="${invitation.token}" readonly />
      </p>
      <p class="muted">
        They register with it, or, already signed in, join with it (POST
        <code>/api/v1/groups/invitations/{token}</code>).
      </p>
      <p><a href="${ADMIN_PATHS.overview}">Back to administration</a></p>`,
  );
}

/** A search box of an instance list. */
const searchForm = (path: string, q: string, label: string): SafeHtml =>
  html`<form method="get" action="${path}" class="inline" role="search">
    <div>
      <label for="q">${label}</label>
      <input id="q" name="q" type="search" value="${q}" maxlength="255" />
    </div>
    <button type="submit">Search</button>
  </form>`;

/** Every user of the instance, with Disable and Enable. */
export function adminUsersPage(
  frame: ConsoleFrame,
  view: { q: string; page: AdminUserPageDto; selfId: string; done?: string },
): string {
  const hrefOf = (page: number) => withQuery(ADMIN_PATHS.users, { q: view.q, page });
  const keep = html`<input type="hidden" name="q" value="${view.q}" /><input
      type="hidden"
      name="page"
      value="${view.page.page}"
    />`;
  const rows = view.page.items.map(
    (user) =>
      html`<tr>
        <td>
          ${user.name}${user.instanceAdmin ? html` <span class="muted">(administrator)</span>` : ''}
        </td>
        <td>${user.email}</td>
        <td>${user.groups}</td>
        <td>${user.createdAt.slice(0, 10)}</td>
        <td>${user.disabled ? 'disabled' : 'active'}</td>
        <td>
          ${
            user.id === view.selfId
              ? html`<span class="muted">you</span>`
              : user.disabled
                ? html`<form method="post" action="${ADMIN_PATHS.user(user.id)}/enable">
                    ${keep}<button type="submit" class="small">Enable ${user.name}</button>
                  </form>`
                : html`<form method="post" action="${ADMIN_PATHS.user(user.id)}/disable">
                    ${keep}<button type="submit" class="small secondary">
                      Disable ${user.name}
                    </button>
                  </form>`
          }
        </td>
      </tr>`,
  );
  return consolePage(
    frame,
    'admin',
    'Every user',
    html`${doneNotice(view.done)}
      <p>
        <a href="${ADMIN_PATHS.overview}">Administration</a> ·
        <a href="${ADMIN_PATHS.groups}">Every group</a>
      </p>
      ${searchForm(ADMIN_PATHS.users, view.q, 'Find users by name or e-mail')}
      <p class="muted">
        Disabling an account ends every session, API key and open connection of it at once; it
        cannot sign in until it is enabled again.
      </p>
      ${
        view.page.total === 0
          ? html`<p class="muted">No user matches.</p>`
          : html`${scrollingTable(
              `Users of the instance`,
              html`
                <table>
                  <caption class="visually-hidden">
                    Users of the instance
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">E-mail</th>
                      <th scope="col">Groups</th>
                      <th scope="col">Since</th>
                      <th scope="col">Account</th>
                      <th scope="col">Change</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows}
                  </tbody>
                </table>
              `,
            )}
            ${pager(view.page.total, view.page.page, view.page.pageSize, hrefOf)}`
      }`,
  );
}

/** Every group of the instance. */
export function adminGroupsPage(
  frame: ConsoleFrame,
  view: { q: string; page: AdminGroupPageDto },
): string {
  const hrefOf = (page: number) => withQuery(ADMIN_PATHS.groups, { q: view.q, page });
  return consolePage(
    frame,
    'admin',
    'Every group',
    html`<p>
        <a href="${ADMIN_PATHS.overview}">Administration</a> ·
        <a href="${ADMIN_PATHS.users}">Every user</a>
      </p>
      ${searchForm(ADMIN_PATHS.groups, view.q, 'Find groups by name')}
      ${
        view.page.total === 0
          ? html`<p class="muted">No group matches.</p>`
          : html`${scrollingTable(
              `Groups of the instance`,
              html`
                <table>
                  <caption class="visually-hidden">
                    Groups of the instance
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Members</th>
                      <th scope="col">Since</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${view.page.items.map(
                      (group) =>
                        html`<tr>
                          <td>${group.name}</td>
                          <td>${group.members}</td>
                          <td>${group.createdAt.slice(0, 10)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              `,
            )}
            ${pager(view.page.total, view.page.page, view.page.pageSize, hrefOf)}`
      }`,
  );
}

const MEBIBYTE = 1024 * 1024;

/** A time as people read it on these pages: `2026-11-28 03:30 UTC`. */
const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function backupState(backup: InstanceBackupDto): SafeHtml {
  if (backup.state === 'failed') return html`<strong>failed</strong>: ${backup.error ?? ''}`;
  if (backup.state === 'running') return html`running`;
  return backup.deletedAt ? html`deleted ${utc(backup.deletedAt)} (retention)` : html`kept`;
}

function backupRehearsal(backup: InstanceBackupDto): SafeHtml | string {
  if (!backup.verification || !backup.verifiedAt) return 'not yet';
  return backup.verification === 'passed'
    ? `passed ${utc(backup.verifiedAt)}`
    : html`<strong>failed</strong> ${utc(backup.verifiedAt)}`;
}

/** The instance backups made, newest first, with their state and rehearsed restore. */
export function adminBackupsPage(frame: ConsoleFrame, page: InstanceBackupPageDto): string {
  const hrefOf = (number: number) => withQuery(ADMIN_PATHS.backups, { page: number });
  return consolePage(
    frame,
    'admin',
    'Instance backups',
    html`<p>
        <a href="${ADMIN_PATHS.overview}">Administration</a> ·
        <a href="${ADMIN_PATHS.users}">Every user</a> ·
        <a href="${ADMIN_PATHS.groups}">Every group</a>
      </p>
      <p class="muted">
        Made on the schedule (TROVE_BACKUP_SCHEDULE) or by <code>npm run backup</code>; each is
        restored into a scratch database before it is stored.
      </p>
      ${
        page.total === 0
          ? html`<p class="muted">No instance backup has been made yet.</p>`
          : html`${scrollingTable(
              'Instance backups',
              html`
                <table>
                  <caption class="visually-hidden">
                    Instance backups
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Started</th>
                      <th scope="col">Made by</th>
                      <th scope="col">State</th>
                      <th scope="col">Size</th>
                      <th scope="col">Rows</th>
                      <th scope="col">Files</th>
                      <th scope="col">Restore rehearsed</th>
                      <th scope="col">Stored at</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${page.items.map(
                      (backup) =>
                        html`<tr>
                          <td>${utc(backup.startedAt)}</td>
                          <td>${backup.trigger === 'schedule' ? 'schedule' : 'npm run backup'}</td>
                          <td>${backupState(backup)}</td>
                          <td>
                            ${
                              backup.sizeBytes === null
                                ? ''
                                : `${(backup.sizeBytes / MEBIBYTE).toFixed(1)} MiB`
                            }${backup.encrypted ? ', encrypted' : ''}
                          </td>
                          <td>${backup.rowCount ?? ''}</td>
                          <td>${backup.fileCount ?? ''}</td>
                          <td>${backupRehearsal(backup)}</td>
                          <td>
                            ${backup.locations.map((location) => html`<div>${location}</div>`)}
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              `,
            )}
            ${pager(page.total, page.page, page.pageSize, hrefOf)}`
      }`,
  );
}
