import { ApiProperty } from '@nestjs/swagger';

/** An entity's stock settings; an entity without any has nulls and "". */
export class EntityStockDto {
  @ApiProperty({ format: 'uuid' })
  entityId: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: no minimum' })
  minQuantity: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: not set' })
  reorderQuantity: number | null;

  @ApiProperty({ type: String, nullable: true, format: 'date', description: 'null: never' })
  expiresOn: string | null;

  @ApiProperty()
  notes: string;
}
