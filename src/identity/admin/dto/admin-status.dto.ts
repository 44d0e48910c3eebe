import { ApiProperty } from '@nestjs/swagger';

export class SsoStatusDto {
  @ApiProperty({ description: 'Single sign-on with an OpenID Connect provider is on' })
  configured: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The provider’s issuer URL; null when single sign-on is off',
  })
  issuer: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The group single sign-on users share (TROVE_OIDC_SHARED_GROUP); null for none',
  })
  sharedGroup: string | null;
}

export class ScimStatusDto {
  @ApiProperty({ description: 'SCIM provisioning at /scim/v2 is on (TROVE_SCIM_TOKEN is set)' })
  configured: boolean;
}

/** How the instance lets people in, without any secret. */
export class AdminStatusDto {
  @ApiProperty({ type: SsoStatusDto })
  sso: SsoStatusDto;

  @ApiProperty({ type: ScimStatusDto })
  scim: ScimStatusDto;

  @ApiProperty({ description: 'Sign-in with e-mail address and password is on' })
  localLogin: boolean;

  @ApiProperty({ description: 'Anyone may register without an invitation' })
  registration: boolean;

  @ApiProperty({ type: 'integer', description: 'How many addresses TROVE_ADMIN_EMAILS lists' })
  adminEmails: number;
}
