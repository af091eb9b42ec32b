import { Module, type DynamicModule } from '@nestjs/common';
import { TracerProviderHost } from './tracer-provider.host';
import {
  TRACER_PROVIDER_HOST,
  TRACING_MEMORY_EXPORTER,
  TRACING_OPTIONS,
  TRACING_SERVICE,
} from './tracing.constants';
import type { ResolvedTracingOptions, TracingModuleOptions } from './tracing-options.interface';
import { resolveTracingOptions } from './tracing-options.validation';
import { TracingService } from './tracing.service';

/** OpenTelemetry tracing for a Nest application; provides `TRACING_SERVICE`. */
@Module({})
export class TracingModule {
  /**
   * Configures tracing. Options are checked when the application starts, and a bad one fails the
   * start with a message naming it.
   */
  static forRoot(options: TracingModuleOptions = {}): DynamicModule {
    return {
      module: TracingModule,
      global: options?.isGlobal === true,
      providers: [
        { provide: TRACING_OPTIONS, useFactory: () => resolveTracingOptions(options) },
        {
          provide: TRACER_PROVIDER_HOST,
          useFactory: (resolved: ResolvedTracingOptions) => TracerProviderHost.start(resolved),
          inject: [TRACING_OPTIONS],
        },
        {
          provide: TRACING_SERVICE,
          useFactory: (host: TracerProviderHost) => new TracingService(host.tracer),
          inject: [TRACER_PROVIDER_HOST],
        },
        {
          provide: TRACING_MEMORY_EXPORTER,
          useFactory: (host: TracerProviderHost) => host.memoryExporter,
          inject: [TRACER_PROVIDER_HOST],
        },
      ],
      exports: [TRACING_SERVICE, TRACING_MEMORY_EXPORTER],
    };
  }
}
