import { ApiProperty } from '@nestjs/swagger';

/** A notifier as its owner sees it (Homebox's NotifierOut, with how deliveries went). */
export class NotifierOutDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty({ format: 'uuid' })
  groupId: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  isActive: boolean;

  @ApiProperty({ description: 'The delivery URL in clear; only its owner is shown it' })
  url: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSuccessAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last failed delivery failed' })
  lastError: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastErrorAt: string | null;
}
