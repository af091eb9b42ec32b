import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

/** Starts the example on PORT (default 3000) against REDIS_URL (default redis://127.0.0.1:6379). */
async function main(): Promise<void> {
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const port = Number(process.env['PORT'] ?? 3000);
  const app = await NestFactory.create(AppModule.create(redisUrl), {
    logger: ['log', 'warn', 'error'],
  });
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
  console.log(
    `tracing-example listening on ${await app.getUrl()}; try GET /orders/42 and GET /metrics`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
