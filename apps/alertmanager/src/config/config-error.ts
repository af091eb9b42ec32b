/**
 * A configuration file that cannot be loaded. `reason` is upstream Alertmanager's text; `file`,
 * `line` (1-based) and `path` (such as `route.routes[1].matchers[0]`) say where, when known.
 * The message reads `<file>:<line>: <path>: <reason>`, leaving out the parts that are unknown.
 */
export class ConfigError extends Error {
  constructor(
    readonly reason: string,
    readonly file?: string,
    readonly line?: number,
    readonly path?: string,
  ) {
    super(formatConfigError(reason, file, line, path));
    this.name = 'ConfigError';
  }
}

function formatConfigError(reason: string, file?: string, line?: number, path?: string): string {
  const where = file !== undefined && line !== undefined ? `${file}:${line}` : (file ?? '');
  return [where, path ?? '', reason].filter((part) => part !== '').join(': ');
}
