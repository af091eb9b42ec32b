import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { provideRedisClient } from '@redisx/tracing';
import Redis from 'ioredis';

/** Token of the application's Redis client, named `cache` in spans and metrics. */
export const CACHE_REDIS = Symbol('CACHE_REDIS');

/** Token of the Redis URL (`REDIS_URL`, default `redis://127.0.0.1:6379`). */
export const REDIS_URL = Symbol('REDIS_URL');

/** The `cache` client; its duplicates are traced as `cache:duplicate` or `cache:subscriber`. */
export const cacheRedisProvider = provideRedisClient({
  provide: CACHE_REDIS,
  name: 'cache',
  inject: [REDIS_URL],
  useFactory: (url: string) => new Redis(url),
});

/** Closes the `cache` client when the application shuts down. */
@Injectable()
export class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(CACHE_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit();
  }
}
