import type { FactoryProvider, InjectionToken, OptionalFactoryDependency } from '@nestjs/common';
import { registerRedisClient } from './redis-interception';

/** A Nest provider of a named Redis client. */
export interface RedisClientProviderOptions<T extends object> {
  /** Token to inject the client with. */
  provide: InjectionToken;
  /** `redisx.client` of its spans and metric labels. */
  name: string;
  /** Creates the client (ioredis `new Redis(...)`, node-redis `createClient(...)`). */
  useFactory: (...args: never[]) => T | Promise<T>;
  inject?: (InjectionToken | OptionalFactoryDependency)[];
}

/**
 * A provider that creates a Redis client and names it with {@link registerRedisClient}:
 * `provideRedisClient({ provide: CACHE, name: 'cache', useFactory: () => new Redis(url) })`.
 */
export function provideRedisClient<T extends object>(
  options: RedisClientProviderOptions<T>,
): FactoryProvider<Promise<T>> {
  const { provide, name, useFactory, inject = [] } = options;
  return {
    provide,
    inject,
    useFactory: async (...args: unknown[]) =>
      registerRedisClient(await useFactory(...(args as never[])), name),
  };
}
