import type { MethodPatcher } from './method-patcher';
import type { OtherInstrumentationsMode } from '../other-instrumentations';
import type { RedisCommandTracer } from './redis-command.tracer';

/**
 * What every driver instrumentation is given: the patcher that replaces (and later restores) the
 * driver's methods, the command tracer a command reports to, and whether wrappers are in place.
 */
export interface DriverWrapping {
  readonly patcher: MethodPatcher;
  readonly active: () => RedisCommandTracer | undefined;
  readonly installed: () => boolean;
  /** What to do with a driver an OpenTelemetry instrumentation already wraps. */
  readonly others: () => OtherInstrumentationsMode;
}

/**
 * One Redis driver (ioredis, node-redis): which copies of it are loaded in the process, how a
 * client is recognised, and how a copy is wrapped. The interception holds one per driver and
 * never needs to know which is which.
 */
export interface RedisDriverInstrumentation {
  /** Looks for the copies the application and this library resolve, and remembers them. */
  discover(): void;
  /** Wraps every copy remembered so far; copies remembered later are wrapped as they come. */
  install(): void;
  /**
   * Remembers the copy `client` comes from (wrapping it at once when wrappers are in place);
   * false when `client` is not a client of this driver.
   */
  register(client: object): boolean;
}
