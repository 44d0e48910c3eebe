import { ApiProperty } from '@nestjs/swagger';

/** One step of where an entity is. */
export class StockLocationStepDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

/** What both stock listings say of an entity. */
export class StockListedEntityDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ example: '000-012', description: 'As `000-123`, or "" when none' })
  assetId: string;

  @ApiProperty()
  quantity: number;

  @ApiProperty({
    type: [StockLocationStepDto],
    description: 'Where it is: its ancestors from the top level down to its parent',
  })
  location: StockLocationStepDto[];
}

/** An entity at or below its minimum quantity. */
export class LowStockItemDto extends StockListedEntityDto {
  @ApiProperty({ type: 'integer' })
  minQuantity: number;

  @ApiProperty({ type: 'integer', nullable: true })
  reorderQuantity: number | null;

  @ApiProperty({
    type: 'integer',
    description:
      'How many to buy: reorderQuantity when set, otherwise the fewest whole units that bring ' +
      'the quantity above the minimum',
  })
  reorder: number;
}

/** An entity that expires within the window asked for, or has expired. */
export class ExpiringItemDto extends StockListedEntityDto {
  @ApiProperty({ format: 'date' })
  expiresOn: string;

  @ApiProperty({ description: 'Whether the day is before today' })
  expired: boolean;

  @ApiProperty({
    type: 'integer',
    description: 'Days from today to the expiry day; negative when expired',
  })
  daysLeft: number;
}

/** An entity with stock settings, as the console's list of stocked items shows it. */
export interface StockedItem extends StockListedEntityDto {
  minQuantity: number | null;
  reorderQuantity: number | null;
  expiresOn: string | null;
  /** Whether it is at or below its minimum. */
  low: boolean;
}

/** A page of one of the stock listings, and how many there are in all. */
export interface StockListPage<T> {
  page: number;
  pageSize: number;
  total: number;
  items: T[];
}
