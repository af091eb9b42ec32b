import { provideRedis, redisAnswers } from './redis-server';

describe('provideRedis', () => {
  it('hands out a Redis server that answers PING', async () => {
    const redis = await provideRedis();
    try {
      expect(await redisAnswers(redis.host, redis.port)).toBe(true);
      expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await redis.stop();
    }
  });

  it('starts its own redis-server when REDIS_URL does not answer', async () => {
    const saved = process.env['REDIS_URL'];
    process.env['REDIS_URL'] = 'redis://127.0.0.1:1';
    try {
      const redis = await provideRedis();
      try {
        expect(redis.port).not.toBe(1);
        expect(await redisAnswers(redis.host, redis.port)).toBe(true);
      } finally {
        await redis.stop();
      }
      expect(await redisAnswers(redis.host, redis.port)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env['REDIS_URL'];
      else process.env['REDIS_URL'] = saved;
    }
  });
});
