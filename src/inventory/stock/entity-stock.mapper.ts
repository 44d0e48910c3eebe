import { formatAssetId } from '../entities/core/asset-id.js';
import type { EntityStockDto } from './dto/entity-stock.dto.js';
import type { StockAdjustmentDto } from './dto/stock-adjustment.dto.js';
import type {
  ExpiringItemDto,
  LowStockItemDto,
  StockedItem,
  StockListedEntityDto,
} from './dto/stock-listing.dto.js';
import type {
  AdjustmentRow,
  ExpiringRow,
  ListedEntityRow,
  LowStockRow,
  StockedRow,
  StockValues,
} from './entity-stock.repository.js';

/** What an entity without stock settings shows. */
export const NO_STOCK: StockValues = {
  minQuantity: null,
  reorderQuantity: null,
  expiresOn: null,
  notes: '',
};

export const toEntityStock = (entityId: string, values: StockValues): EntityStockDto => ({
  entityId,
  minQuantity: values.minQuantity,
  reorderQuantity: values.reorderQuantity,
  expiresOn: values.expiresOn,
  notes: values.notes,
});

/**
 * How many to buy: the reorder quantity when set, otherwise the fewest whole units that bring
 * `quantity` above `minimum` (at least 1).
 */
export function reorderOf(
  quantity: number,
  minimum: number,
  reorderQuantity: number | null,
): number {
  if (reorderQuantity !== null) return reorderQuantity;
  return Math.max(1, Math.floor(minimum - quantity) + 1);
}

const toListed = (row: ListedEntityRow): StockListedEntityDto => ({
  id: row.id,
  name: row.name,
  assetId: formatAssetId(row.assetId),
  quantity: row.quantity,
  location: row.location.map((step) => ({ id: step.id, name: step.name })),
});

export const toLowStockItem = (row: LowStockRow): LowStockItemDto => ({
  ...toListed(row),
  minQuantity: row.minQuantity,
  reorderQuantity: row.reorderQuantity,
  reorder: reorderOf(row.quantity, row.minQuantity, row.reorderQuantity),
});

export const toExpiringItem = (row: ExpiringRow): ExpiringItemDto => ({
  ...toListed(row),
  expiresOn: row.expiresOn,
  expired: row.daysLeft < 0,
  daysLeft: row.daysLeft,
});

export const toStockedItem = (row: StockedRow): StockedItem => ({
  ...toListed(row),
  minQuantity: row.minQuantity,
  reorderQuantity: row.reorderQuantity,
  expiresOn: row.expiresOn,
  low: row.low,
});

export const toStockAdjustment = (row: AdjustmentRow): StockAdjustmentDto => ({
  id: row.id,
  entityId: row.entityId,
  quantityBefore: row.quantityBefore,
  quantityAfter: row.quantityAfter,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
});

/** The header of the low-stock CSV (the shopping list). */
export const LOW_STOCK_CSV_HEADER = [
  'Name',
  'Asset ID',
  'Location',
  'Quantity',
  'Minimum',
  'Reorder',
];

/** One row of the shopping list: the location's names joined by ` / `. */
export const toLowStockCsvRow = (item: LowStockItemDto): string[] => [
  item.name,
  item.assetId,
  item.location.map((step) => step.name).join(' / '),
  String(item.quantity),
  String(item.minQuantity),
  String(item.reorder),
];
