import { ApiProperty } from '@nestjs/swagger';

/** A change of an entity's quantity made as a stock adjustment, with its reason. */
export class StockAdjustmentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  entityId: string;

  @ApiProperty({ description: 'The quantity before the adjustment' })
  quantityBefore: number;

  @ApiProperty({ description: 'The quantity after it' })
  quantityAfter: number;

  @ApiProperty()
  reason: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
