import { Inject, Injectable } from '@nestjs/common';
import { TRACING_SERVICE, type ITracingService } from '@redisx/tracing';
import type Redis from 'ioredis';
import { ORDER_VIEWED } from './order-events';
import { CACHE_REDIS } from './redis.providers';

/** What `GET /orders/:id` answers. */
export interface OrderView {
  id: string;
  status: string;
  views: number;
}

/** Reads an order through the cache, counting views; every step shows up in the trace. */
@Injectable()
export class OrdersService {
  constructor(
    @Inject(TRACING_SERVICE) private readonly tracing: ITracingService,
    @Inject(CACHE_REDIS) private readonly redis: Redis,
  ) {}

  view(id: string): Promise<OrderView> {
    return this.tracing.withSpan(
      'order.view',
      async () => {
        this.tracing.setAttribute('order.id', id);
        const key = `example:order:${id}`;
        let status = await this.redis.get(key);
        if (status === null) {
          status = await this.tracing.withSpan('order.load-from-db', () => 'paid', {
            kind: 'INTERNAL',
          });
          await this.redis.set(key, status, 'EX', 60);
          this.tracing.addEvent('cache.filled', { key });
        }
        const [[, views]] = (await this.redis
          .pipeline()
          .incr(`${key}:views`)
          .expire(`${key}:views`, 3600)
          .exec()) as [[Error | null, number]];
        await this.redis.publish(ORDER_VIEWED, id);
        return { id, status, views };
      },
      { kind: 'INTERNAL' },
    );
  }
}
