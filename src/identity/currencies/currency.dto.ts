import { ApiProperty } from '@nestjs/swagger';

export class CurrencyDto {
  @ApiProperty({ example: 'USD' })
  code: string;

  @ApiProperty({ example: 'US Dollar' })
  name: string;

  @ApiProperty({ example: 'United States', description: 'Country the code is named after' })
  local: string;

  @ApiProperty({ example: '$' })
  symbol: string;

  @ApiProperty({ example: 2, description: 'Digits after the decimal point' })
  decimals: number;
}
