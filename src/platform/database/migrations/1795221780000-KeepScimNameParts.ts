import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The parts of a provisioned user's name as the identity provider sends them (`name.givenName`,
 * `name.middleName`, `name.familyName`), beside the one name Trove shows: so that a PATCH of one
 * part (a changed surname) changes the name without losing the others.
 */
export class KeepScimNameParts1795221780000 implements MigrationInterface {
  name = 'KeepScimNameParts1795221780000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "scim_identities" ADD "given_name" character varying(255), ADD "middle_name" character varying(255), ADD "family_name" character varying(255)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "scim_identities" DROP COLUMN "given_name", DROP COLUMN "middle_name", DROP COLUMN "family_name"`,
    );
  }
}
