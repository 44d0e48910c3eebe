import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { CheckoutsService } from './checkouts.service.js';
import { CheckoutDto, CheckoutPageDto } from './dto/checkout.dto.js';
import { CreateCheckoutDto } from './dto/create-checkout.dto.js';
import { ListCheckoutsQueryDto } from './dto/list-checkouts.query.dto.js';
import { ReturnCheckoutDto } from './dto/return-checkout.dto.js';

/** The check-outs of one entity, under the entity's path. */
@ApiTags('checkouts')
@ApiAuth()
@Controller('entities')
export class EntityCheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Get(':id/checkouts')
  @ApiOperation({
    summary: 'Check-outs of an entity',
    description: 'Every check-out of the entity, returned or not, newest first.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: [CheckoutDto] })
  @ApiErrors(400, 404)
  listEntityCheckouts(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<CheckoutDto[]> {
    return this.checkouts.listForEntity(user, id);
  }

  @Post(':id/checkouts')
  @Idempotent()
  @ApiOperation({
    summary: 'Check out some of an entity',
    description:
      'Lends `quantity` (1 by default) to a member of the group (`memberId`) or to an outside ' +
      'borrower (`borrower`), exactly one of them. At most what is available: the entity’s ' +
      'quantity less what its check-outs still have out. The entity’s quantity is unchanged.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiCreatedResponse({ type: CheckoutDto })
  @ApiErrors(400, 404, 422)
  checkOutEntity(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: CreateCheckoutDto,
  ): Promise<CheckoutDto> {
    return this.checkouts.checkOut(user, id, dto);
  }

  @Post(':id/checkouts/:checkoutId/return')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Return some or all of a check-out',
    description:
      'Takes back `quantity` (by default all that is out); once all is back the check-out is ' +
      'returned (`returnedAt` set). 409 when it is returned already. A partial return retried ' +
      'with the same Idempotency-Key takes back nothing more.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiUuidParam('checkoutId', 'Check-out id')
  @ApiOkResponse({ type: CheckoutDto })
  @ApiErrors(400, 404, 409, 422)
  returnCheckout(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @UuidParam('checkoutId') checkoutId: string,
    @Body() dto: ReturnCheckoutDto,
  ): Promise<CheckoutDto> {
    return this.checkouts.returnCheckout(user, id, checkoutId, dto);
  }
}

/** Check-outs across the group. */
@ApiTags('checkouts')
@ApiAuth()
@Controller('checkouts')
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Get()
  @ApiOperation({
    summary: 'Check-outs of every entity of the group',
    description:
      'Optionally by status and member; paged (`page` from 1, `pageSize` 50 by default, at ' +
      'most 100). By due day (none last), then oldest first.',
  })
  @ApiOkResponse({ type: CheckoutPageDto })
  @ApiErrors(422)
  listCheckouts(
    @CurrentUser() user: AuthUser,
    @Query() query: ListCheckoutsQueryDto,
  ): Promise<CheckoutPageDto> {
    return this.checkouts.list(user, query);
  }
}
