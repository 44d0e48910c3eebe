import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/decorators/public.decorator.js';
import { CurrenciesService } from './currencies.service.js';
import { CurrencyDto } from './currency.dto.js';

@ApiTags('currencies')
@Controller('currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  @Public()
  @Get()
  @Header('Cache-Control', 'max-age=600')
  @ApiOperation({ summary: 'Currencies a group may use, sorted by name; needs no token' })
  @ApiOkResponse({ type: [CurrencyDto] })
  listCurrencies(): CurrencyDto[] {
    return this.currencies.list();
  }
}
