import type { LoggerService } from '@nestjs/common';
import type { Logger } from './logger';

/**
 * Routes Nest's own messages into our structured logger. Nest's start-up chatter (module and
 * route mapping) goes to debug so that `info` shows only what an operator needs.
 */
export class NestLoggerAdapter implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug(String(message), { component: context });
  }

  error(message: unknown, stackOrContext?: string, context?: string): void {
    this.logger.error(String(message), { component: context ?? stackOrContext });
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn(String(message), { component: context });
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug(String(message), { component: context });
  }

  verbose(message: unknown, context?: string): void {
    this.logger.debug(String(message), { component: context });
  }
}
