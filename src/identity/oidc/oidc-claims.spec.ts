import { describe, expect, it } from 'vitest';
import {
  checkAccess,
  readBooleanClaim,
  readGroupsClaim,
  readIdentity,
  type OidcIdentity,
} from './oidc-claims.js';
import { sharedGroupRole } from '../accounts/provider-groups.js';
import { OidcSignInRefused } from './oidc-errors.js';

const claimNames = {
  emailClaim: 'email',
  emailVerifiedClaim: 'email_verified',
  nameClaim: 'name',
  groupClaim: 'groups',
};
const open = { verifyEmail: false, allowedGroups: [], sharedGroup: '', roleMapping: {} };
const identity = (overrides: Partial<OidcIdentity> = {}): OidcIdentity => ({
  issuer: 'https://idp.example',
  subject: 'abc',
  email: 'ada@example.com',
  emailVerified: true,
  name: 'Ada',
  groups: [],
  ...overrides,
});

describe('readBooleanClaim', () => {
  it('reads JSON booleans and the strings "true"/"false", and nothing else', () => {
    expect(readBooleanClaim(true)).toBe(true);
    expect(readBooleanClaim(false)).toBe(false);
    expect(readBooleanClaim(' TRUE ')).toBe(true);
    expect(readBooleanClaim('false')).toBe(false);
    expect(readBooleanClaim('yes')).toBeUndefined();
    expect(readBooleanClaim(1)).toBeUndefined();
    expect(readBooleanClaim(undefined)).toBeUndefined();
  });
});

describe('readGroupsClaim', () => {
  it('reads an array of names or one name, dropping blanks and non-strings', () => {
    expect(readGroupsClaim(['a', ' b ', '', 3, null])).toEqual(['a', 'b']);
    expect(readGroupsClaim('staff')).toEqual(['staff']);
    expect(readGroupsClaim('  ')).toEqual([]);
    expect(readGroupsClaim(undefined)).toEqual([]);
    expect(readGroupsClaim({ staff: true })).toEqual([]);
  });
});

describe('readIdentity', () => {
  it('maps the configured claims', () => {
    const claims = { mail: ' Ada@Example.com ', ok: 'true', display: 'Ada L.', teams: 'x' };
    expect(
      readIdentity(claims, 'iss', 'sub', {
        emailClaim: 'mail',
        emailVerifiedClaim: 'ok',
        nameClaim: 'display',
        groupClaim: 'teams',
      }),
    ).toEqual({
      issuer: 'iss',
      subject: 'sub',
      email: 'Ada@Example.com',
      emailVerified: true,
      name: 'Ada L.',
      groups: ['x'],
    });
  });

  it('falls back to the e-mail as name, and to unverified', () => {
    const read = readIdentity({ email: 'ada@example.com', name: '  ' }, 'i', 's', claimNames);
    expect(read).toMatchObject({ name: 'ada@example.com', emailVerified: false, groups: [] });
  });

  it('refuses a missing or malformed e-mail', () => {
    expect(() => readIdentity({}, 'i', 's', claimNames)).toThrow(OidcSignInRefused);
    expect(() => readIdentity({ email: 42 }, 'i', 's', claimNames)).toThrow(OidcSignInRefused);
    expect(() => readIdentity({ email: 'not an address' }, 'i', 's', claimNames)).toThrow(
      OidcSignInRefused,
    );
  });
});

describe('sharedGroupRole', () => {
  const mapping = { admins: 'owner', staff: 'user', auditors: 'viewer' } as const;

  it('takes the highest mapped role', () => {
    expect(sharedGroupRole(['auditors', 'staff'], mapping)).toBe('user');
    expect(sharedGroupRole(['auditors', 'admins', 'staff'], mapping)).toBe('owner');
    expect(sharedGroupRole(['auditors'], mapping)).toBe('viewer');
  });

  it('gives no role without a match, and user without a mapping', () => {
    expect(sharedGroupRole(['others'], mapping)).toBeUndefined();
    expect(sharedGroupRole(['constructor', 'toString'], mapping)).toBeUndefined();
    expect(sharedGroupRole([], {})).toBe('user');
  });
});

describe('checkAccess', () => {
  it('admits anyone when nothing is configured', () => {
    expect(checkAccess(identity({ emailVerified: false }), open)).toBeUndefined();
  });

  it('enforces e-mail verification when asked to', () => {
    const settings = { ...open, verifyEmail: true };
    expect(() => checkAccess(identity({ emailVerified: false }), settings)).toThrow(
      OidcSignInRefused,
    );
    expect(checkAccess(identity(), settings)).toBeUndefined();
  });

  it('enforces the allowed groups, case-sensitively', () => {
    const settings = { ...open, allowedGroups: ['staff'] };
    expect(() => checkAccess(identity({ groups: ['Staff'] }), settings)).toThrow(OidcSignInRefused);
    expect(checkAccess(identity({ groups: ['x', 'staff'] }), settings)).toBeUndefined();
  });

  it('returns the role in the shared group, refusing unmapped users', () => {
    const settings = { ...open, sharedGroup: 'Acme', roleMapping: { staff: 'user' as const } };
    expect(checkAccess(identity({ groups: ['staff'] }), settings)).toBe('user');
    expect(() => checkAccess(identity({ groups: ['x'] }), settings)).toThrow(OidcSignInRefused);
  });
});
