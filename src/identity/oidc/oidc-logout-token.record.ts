import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A back-channel logout token that was accepted, by its issuer and `jti`, so that every instance
 * refuses it when it comes again. Kept until the token could no longer pass the freshness check.
 */
@Entity('oidc_logout_tokens')
export class OidcLogoutTokenRecord {
  @PrimaryColumn({ type: 'text' })
  issuer: string;

  @PrimaryColumn({ type: 'text' })
  jti: string;

  @Index()
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  receivedAt: Date;
}
