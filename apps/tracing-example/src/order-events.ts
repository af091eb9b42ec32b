import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type Redis from 'ioredis';
import { CACHE_REDIS } from './redis.providers';

/** Channel the example publishes order views on. */
export const ORDER_VIEWED = 'example:orders:viewed';

/** Listens to order events on a subscriber connection made at runtime from the `cache` client. */
@Injectable()
export class OrderEvents implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OrderEvents.name);
  private subscriber: Redis | undefined;

  constructor(@Inject(CACHE_REDIS) private readonly redis: Redis) {}

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (_channel: string, message: string) =>
      this.logger.log(`order viewed: ${message}`),
    );
    await this.subscriber.subscribe(ORDER_VIEWED);
  }

  onModuleDestroy(): void {
    this.subscriber?.disconnect();
  }
}
