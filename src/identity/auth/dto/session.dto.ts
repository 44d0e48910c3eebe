import { ApiProperty } from '@nestjs/swagger';

/** How a session began: a password sign-in, or a single sign-on (OIDC). */
export const SESSION_SIGN_INS = ['password', 'singleSignOn'] as const;
export type SessionSignIn = (typeof SESSION_SIGN_INS)[number];

/** One of the caller's sign-in sessions. */
export class SessionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time', description: 'When it began (or was last refreshed)' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({
    enum: SESSION_SIGN_INS,
    enumName: 'SessionSignIn',
    description: 'How it began: a password sign-in or a single sign-on',
  })
  signIn: SessionSignIn;

  @ApiProperty({ description: 'The session making this request' })
  current: boolean;
}
