import { Controller, Get, Param } from '@nestjs/common';
import { OrdersService, type OrderView } from './orders.service';

/** `GET /orders/:id`. */
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get(':id')
  view(@Param('id') id: string): Promise<OrderView> {
    return this.orders.view(id);
  }
}
