/** Where the library's own tracer provider sends finished spans. */
export type TracingExporter = 'console' | 'memory' | 'none';

/** Options of {@link TracingModule.forRoot}. */
export interface TracingModuleOptions {
  /** When false the service still runs callbacks but records nothing. Default `true`. */
  enabled?: boolean;
  /**
   * `service.name` of the resource of the library's own provider. Default: the SDK's
   * `unknown_service:<process>`. Ignored when the application registered its own provider.
   */
  serviceName?: string;
  /**
   * Exporter of the library's own provider: `console` prints each span, `memory` keeps them for
   * tests (see `TRACING_MEMORY_EXPORTER`), `none` records spans without exporting. Default `none`.
   */
  exporter?: TracingExporter;
  /** Registers the module globally, so `TRACING_SERVICE` can be injected anywhere. Default `false`. */
  isGlobal?: boolean;
}

/** {@link TracingModuleOptions} after validation, with defaults filled in. */
export interface ResolvedTracingOptions {
  enabled: boolean;
  serviceName: string | undefined;
  exporter: TracingExporter;
  isGlobal: boolean;
}
