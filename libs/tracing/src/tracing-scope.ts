import { context, createContextKey, type Context, type Tracer } from '@opentelemetry/api';
import type { RedisCommandTracer } from './redis/redis-command.tracer';

/**
 * What one running `TracingModule` instance reports to: its tracer and, when it traces Redis
 * commands, its command tracer. Each application has its own; work done for a request of one
 * application carries that application's scope in its OpenTelemetry context.
 */
export interface TracingScope {
  readonly tracer: Tracer;
  redis?: RedisCommandTracer;
}

const SCOPE = createContextKey('@redisx/tracing scope');

/** `ctx` with `scope` as the scope of the work that runs in it. */
export function withTracingScope(ctx: Context, scope: TracingScope): Context {
  return ctx.setValue(SCOPE, scope);
}

/**
 * The running module instances, oldest first. Driver prototypes and `@Span()` methods are shared
 * by the whole process, so their wrappers ask here which instance a call belongs to: the one
 * whose span or request it runs under, or else the oldest running instance that wants it. A
 * second application neither takes over the first's calls nor stops them when it closes.
 */
export class TracingScopes {
  private readonly running: TracingScope[] = [];

  /** Starts routing to `scope`. */
  add(scope: TracingScope): void {
    if (!this.running.includes(scope)) this.running.push(scope);
  }

  /** Stops routing to `scope`. */
  remove(scope: TracingScope): void {
    const at = this.running.indexOf(scope);
    if (at >= 0) this.running.splice(at, 1);
  }

  /** Whether any instance runs. */
  get size(): number {
    return this.running.length;
  }

  /**
   * What `pick` takes from the scope of the current call: the running scope its context carries,
   * else the oldest running scope for which `pick` gives something.
   */
  current<T>(
    pick: (scope: TracingScope) => T | undefined,
    ctx: Context = context.active(),
  ): T | undefined {
    const own = ctx.getValue(SCOPE) as TracingScope | undefined;
    if (own !== undefined && this.running.includes(own)) return pick(own);
    for (const scope of this.running) {
      const value = pick(scope);
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

/** The process's running module instances (see {@link TracingScopes}). */
export const RUNNING_SCOPES = new TracingScopes();
