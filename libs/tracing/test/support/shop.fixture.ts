import { Controller, Get, Inject, Injectable, Param } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRACING_SERVICE, type ITracingService } from '../../src';

/** Token of the ioredis client the shop uses. */
export const CACHE = Symbol('CACHE');
/** Token of the key prefix of this test run. */
export const PREFIX = Symbol('PREFIX');

/** Loads orders the way an application does: a custom span around Redis commands. */
@Injectable()
export class OrderService {
  constructor(
    @Inject(TRACING_SERVICE) private readonly tracing: ITracingService,
    @Inject(CACHE) private readonly redis: Redis,
    @Inject(PREFIX) private readonly prefix: string,
  ) {}

  load(id: string): Promise<{ id: string; views: number; cached: string | null }> {
    return this.tracing.withSpan(
      'order.load',
      async () => {
        const key = `${this.prefix}:order:${id}`;
        const cached = await this.redis.get(key);
        await this.redis.set(key, `order-${id}`);
        const [[, views]] = (await this.redis
          .pipeline()
          .incr(`${key}:views`)
          .expire(`${key}:views`, 60)
          .exec()) as [[Error | null, number]];
        this.tracing.setAttribute('order.id', id);
        return { id, views, cached };
      },
      { kind: 'INTERNAL' },
    );
  }

  /** A command Redis refuses: INCR on a hash. */
  async broken(id: string): Promise<void> {
    const key = `${this.prefix}:hash:${id}`;
    await this.redis.hset(key, 'field', 'value');
    await this.tracing.withSpan('order.break', () => this.redis.incr(key), { kind: 'INTERNAL' });
  }
}

@Controller('orders')
export class OrderController {
  constructor(private readonly orders: OrderService) {}

  @Get(':id')
  load(@Param('id') id: string) {
    return this.orders.load(id);
  }

  @Get(':id/broken')
  async broken(@Param('id') id: string) {
    await this.orders.broken(id);
  }
}
