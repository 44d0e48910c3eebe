import { ApiProperty } from '@nestjs/swagger';

export class BuildInfoDto {
  @ApiProperty({ description: 'Build time (RFC 3339), empty when not recorded' })
  buildTime: string;

  @ApiProperty({ description: 'Commit of the build, empty when not recorded' })
  commit: string;

  @ApiProperty({ example: '0.1.0' })
  version: string;
}

export class LatestVersionDto {
  @ApiProperty({ description: 'Release date of the newest known version' })
  date: string;

  @ApiProperty({ example: '0.1.0' })
  version: string;
}

export class OidcStatusDto {
  @ApiProperty({ description: 'Local (e-mail and password) sign-in is allowed' })
  allowLocal: boolean;

  @ApiProperty()
  autoRedirect: boolean;

  @ApiProperty({ example: 'Sign in with OIDC' })
  buttonText: string;

  @ApiProperty()
  enabled: boolean;
}

export class TelemetryStatusDto {
  @ApiProperty({ description: 'Trove sends no telemetry; always false' })
  enabled: boolean;
}

/** Application information (spec §4.4). */
export class StatusDto {
  @ApiProperty()
  allowRegistration: boolean;

  @ApiProperty({ type: BuildInfoDto })
  build: BuildInfoDto;

  @ApiProperty()
  demo: boolean;

  @ApiProperty({ description: 'True only when the database answers' })
  health: boolean;

  @ApiProperty({ description: 'A label print command is configured' })
  labelPrinting: boolean;

  @ApiProperty({ type: LatestVersionDto })
  latest: LatestVersionDto;

  @ApiProperty()
  message: string;

  @ApiProperty({ type: OidcStatusDto })
  oidc: OidcStatusDto;

  @ApiProperty({ type: TelemetryStatusDto })
  telemetry: TelemetryStatusDto;

  @ApiProperty({ example: 'Trove' })
  title: string;

  @ApiProperty({ type: [String], description: 'API versions this server speaks', example: ['v1'] })
  versions: string[];
}
