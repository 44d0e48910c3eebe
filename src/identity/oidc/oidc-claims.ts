import type { TroveConfig } from '../../platform/config/configuration.js';
import type { GroupRole } from '../auth/group-role.js';
import { sharedGroupRole } from '../accounts/provider-groups.js';
import { OidcSignInRefused } from './oidc-errors.js';

export type OidcSettings = TroveConfig['oidc'];

/** Who the provider says signed in, read from the merged ID-token and UserInfo claims. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  groups: string[];
}

const NAME_MAX_LENGTH = 255;
const EMAIL_MAX_LENGTH = 255;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** A boolean claim as providers send it: a JSON boolean or the strings "true"/"false". */
export function readBooleanClaim(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return undefined;
}

/** A group claim: an array of names or a single name; anything else means no groups. */
export function readGroupsClaim(value: unknown): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list
    .filter((group): group is string => typeof group === 'string')
    .map((group) => group.trim())
    .filter((group) => group !== '');
}

/** Reads the identity from the claims; refuses when the e-mail claim is missing or malformed. */
export function readIdentity(
  claims: Record<string, unknown>,
  issuer: string,
  subject: string,
  settings: Pick<OidcSettings, 'emailClaim' | 'emailVerifiedClaim' | 'nameClaim' | 'groupClaim'>,
): OidcIdentity {
  const rawEmail = claims[settings.emailClaim];
  const email = typeof rawEmail === 'string' ? rawEmail.trim() : '';
  if (email === '') {
    throw new OidcSignInRefused(`the provider sent no '${settings.emailClaim}' claim`);
  }
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) {
    throw new OidcSignInRefused(`the '${settings.emailClaim}' claim is not an e-mail address`);
  }
  const rawName = claims[settings.nameClaim];
  const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName.trim() : email;
  return {
    issuer,
    subject,
    email,
    emailVerified: readBooleanClaim(claims[settings.emailVerifiedClaim]) === true,
    name: name.slice(0, NAME_MAX_LENGTH),
    groups: readGroupsClaim(claims[settings.groupClaim]),
  };
}

/**
 * Applies the sign-in rules that need no database: verified e-mail, allowed groups and, with a
 * shared group, the role mapping. Returns the role in the shared group (undefined without one).
 */
export function checkAccess(
  identity: OidcIdentity,
  settings: Pick<OidcSettings, 'verifyEmail' | 'allowedGroups' | 'sharedGroup' | 'roleMapping'>,
): GroupRole | undefined {
  if (settings.verifyEmail && !identity.emailVerified) {
    throw new OidcSignInRefused(`the provider has not verified the e-mail address`);
  }
  if (
    settings.allowedGroups.length > 0 &&
    !identity.groups.some((group) => settings.allowedGroups.includes(group))
  ) {
    throw new OidcSignInRefused('the user is in none of the allowed groups');
  }
  if (settings.sharedGroup === '') return undefined;
  const role = sharedGroupRole(identity.groups, settings.roleMapping);
  if (!role) throw new OidcSignInRefused('none of the user’s groups is mapped to a role');
  return role;
}
