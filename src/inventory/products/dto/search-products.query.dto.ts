import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** The query of GET /products/search-from-barcode. */
export class SearchProductsQueryDto {
  @ApiPropertyOptional({
    example: '4006381333931',
    description:
      'The barcode: 8, 12, 13 or 14 digits (EAN-8, UPC-A, EAN-13, GTIN-14) with a valid GS1 check digit. Required unless productEAN is given; wins over productEAN.',
  })
  @IsOptional()
  @IsString()
  data?: string;

  @ApiPropertyOptional({
    example: '4006381333931',
    description: 'Alias of data, as Homebox clients send it',
  })
  @IsOptional()
  @IsString()
  productEAN?: string;
}
