/**
 * The programmatic API of `@redisx/alertmanager`, for embedding the server or checking
 * configuration from code. The binaries `redisx-alertmanager` and `redisx-amtool` are the main
 * entry points; everything not listed here is internal.
 */
export { buildInfo, type BuildInfo } from './build/build-info';
export {
  ConfigError,
  loadConfigFile,
  parseConfig,
  serializeConfig,
  type AlertmanagerConfig,
  type LoadedConfig,
} from './config';
export { StreamLogger } from './logging/stream-logger';
export type { Logger, LogFormat, LogLevel } from './logging/logger';
export { startServer, StartupError, type RunningServer } from './server/start-server';
export type { ServerOptions } from './server/server-options';
