import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { TracingModuleOptions } from './tracing-options.interface';

/**
 * `forRoot(options)` and `forRootAsync({ imports, inject, useFactory | useClass | useExisting })`,
 * both with `isGlobal`. A class given to `useClass`/`useExisting` implements
 * {@link TracingOptionsFactory}.
 */
export const {
  ConfigurableModuleClass: ConfigurableTracingModule,
  MODULE_OPTIONS_TOKEN: TRACING_MODULE_OPTIONS,
  OPTIONS_TYPE: TRACING_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: TRACING_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<TracingModuleOptions>({ moduleName: 'Tracing' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createTracingOptions')
  .setExtras({ isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();

/** What a class given to `forRootAsync({ useClass })` or `useExisting` provides. */
export interface TracingOptionsFactory {
  createTracingOptions(): TracingModuleOptions | Promise<TracingModuleOptions>;
}
