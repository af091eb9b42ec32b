import { ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';
import { AlwaysOnSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';

/** How many throwaway spans one warm-up starts and ends (about 5 ms at start-up). */
export const WARM_UP_SPANS = 500;

/** Attributes of the shape command spans carry, so the same property paths are exercised. */
const SAMPLE_ATTRIBUTES = {
  'db.system': 'redis',
  'db.operation': 'GET',
  'db.statement': 'GET key',
  'server.address': '127.0.0.1',
  'server.port': 6379,
};

let warmedUp = false;

/** Whether {@link warmUpSpanAllocation} would run for `provider`. */
export function needsWarmUp(provider: unknown): provider is BasicTracerProvider {
  return !warmedUp && provider instanceof BasicTracerProvider;
}

/**
 * Runs the span path of the SDK that `provider` comes from through short-lived spans once per
 * process, before the application's first spans.
 *
 * V8 decides, per allocation site, whether to allocate objects straight in the old generation
 * (pretenuring), from how many of the site's recent objects are still alive at a garbage
 * collection (counted only while the code making them is unoptimized, the first few hundred); a
 * decision to pretenure stays for the life of the process, and so does a decision not to. An
 * application's first spans all count as alive for a while: a batch span processor holds them
 * until its first batch of 512 fills, and what is allocated while V8 marks the old generation
 * counts as alive at the collection that ends the marking, which start-up work makes likely just
 * then. V8 then pretenures every later span context and the span's link and event arrays, and
 * each span keeps young objects alive until the next full collection: about a quarter more CPU
 * per traced command (BENCHMARKS.md, Tracing). Spans that die at once, seen first, make that first
 * decision "young"; `TracerProviderHost` runs this when V8 is not marking.
 *
 * The spans come from a private provider built from the same copy of the SDK (no processors, no
 * metrics, always sampled): nothing is exported, counted or logged. Returns whether it ran: only
 * the first time, and only for a provider of the SDK copy this library loads (another copy's
 * allocation sites are its own, out of reach).
 */
export function warmUpSpanAllocation(provider: unknown): boolean {
  if (!needsWarmUp(provider)) return false;
  warmedUp = true;
  const tracer = new BasicTracerProvider({ sampler: new AlwaysOnSampler() }).getTracer(
    '@redisx/tracing/warm-up',
  );
  // Root spans first, then children of one, as command spans come under a request's span;
  // attributes given at the start and set afterwards, the two ways spans get them.
  let parent: Context = ROOT_CONTEXT;
  for (let index = 0; index < WARM_UP_SPANS; index++) {
    const atStart = index % 2 === 0;
    const span = tracer.startSpan(
      'warm-up',
      { kind: SpanKind.CLIENT, attributes: atStart ? SAMPLE_ATTRIBUTES : undefined },
      parent,
    );
    if (!atStart) span.setAttributes(SAMPLE_ATTRIBUTES);
    span.setAttribute('redisx.duration_ms', index);
    span.end();
    if (index === WARM_UP_SPANS / 2) parent = trace.setSpan(ROOT_CONTEXT, span);
  }
  return true;
}
