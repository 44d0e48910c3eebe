import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ErrorResponseDto } from '../../platform/errors/error-response.dto.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { BarcodeProductDto } from './dto/barcode-product.dto.js';
import { SearchProductsQueryDto } from './dto/search-products.query.dto.js';
import { ProductsService } from './products.service.js';

/** Product lookup by barcode at public product databases. */
@ApiTags('products')
@ApiAuth()
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get('search-from-barcode')
  @ApiOperation({
    summary: 'Search a product by its barcode',
    description:
      'Asks the configured providers (UPCitemdb, Open Food Facts) in parallel and lists every ' +
      'hit, UPCitemdb first; [] when none knows the code (Homebox answers 204). A provider that ' +
      'fails is skipped; 502 when every one fails. Each item is ready for POST /entities ' +
      '(quantity 1, no tags, "" for parentId and entityTypeId). Answers are cached per code.',
  })
  @ApiOkResponse({ type: [BarcodeProductDto] })
  @ApiErrors(422)
  @ApiResponse({
    status: 502,
    description: 'No barcode provider could be reached, or none gave a readable answer',
    type: ErrorResponseDto,
  })
  searchProductsByBarcode(
    @CurrentUser() user: AuthUser,
    @Query() query: SearchProductsQueryDto,
  ): Promise<BarcodeProductDto[]> {
    return this.products.searchByBarcode(user, query);
  }
}
