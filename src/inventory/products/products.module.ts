import { Module } from '@nestjs/common';
import { OutboundModule } from '../../platform/outbound/outbound.module.js';
import { ProductsController } from './products.controller.js';
import { ProductsService } from './products.service.js';

/** Product barcode search. */
@Module({
  imports: [OutboundModule],
  controllers: [ProductsController],
  providers: [ProductsService],
})
export class ProductsModule {}
