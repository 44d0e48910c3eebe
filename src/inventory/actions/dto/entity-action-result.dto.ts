import { ApiProperty } from '@nestjs/swagger';

/** What an entity maintenance action did. */
export class EntityActionResultDto {
  @ApiProperty({ example: 3, description: 'How many rows the action changed or deleted' })
  completed: number;
}
