import { formatBase2Bytes } from '../../config/prometheus/base2-bytes-text';
import { formatDuration } from '../../time/duration';
import { formatRfc3339Nano } from '../../time/go-date-time';

/** Where `/api/v1/status/runtimeinfo` reads this server's state from. */
export interface RuntimeSources {
  /** When the server started (ms). */
  readonly startedAt: number;
  /** The working directory at start. */
  readonly cwd: string;
  /** Whether the last configuration load succeeded, and when one last did (ms). */
  lastReload(): { successful: boolean; successAt: number };
  /** Damaged tails of the metric store's log cut off when it was loaded. */
  corruptions(): number;
  /** Threads running JavaScript: the main one and the query threads alive now. */
  threads(): number;
  /** CPUs the process may use (`os.availableParallelism()`). */
  readonly cpus: number;
  /** The metric store's retention: time (ms; Infinity for none) and size (bytes; 0 for none). */
  readonly retention: { readonly timeMs: number; readonly bytes: number };
  /** The process's V8 and Node options (`process.execArgv` and `NODE_OPTIONS`). */
  readonly nodeOptions: readonly string[];
  /** `NODE_DEBUG`, or '' when unset. */
  readonly nodeDebug: string;
}

/**
 * Prometheus 2.42's `RuntimeInfo`, field for field (2.42 has no `GOMEMLIMIT`), filled with this
 * server's equivalents:
 * - `startTime`, `CWD`: as upstream, the start of the server and its working directory;
 * - `reloadConfigSuccess`, `lastConfigTime`: the last load of the configuration (the server's
 *   file and `--rules.config.file` load together, all or nothing), the time in whole seconds;
 * - `corruptionCount`: damaged tails of the metric store's log repaired at start (upstream: WAL
 *   corruptions repaired);
 * - `goroutineCount`: threads that run the server's JavaScript (the main one and the query
 *   threads alive now), its units of concurrency as goroutines are Go's;
 * - `GOMAXPROCS`: the CPUs the process may use, which bounds the query threads as GOMAXPROCS
 *   bounds Go's;
 * - `GOGC`: the V8 options the process runs with that tune its heap and collector (space sizes,
 *   `--gc-*`), '' for none, as GOGC is '' when unset;
 * - `GODEBUG`: `NODE_DEBUG`, Node's runtime debugging switches;
 * - `storageRetention`: the metric store's retention in Prometheus's words (`15d`, `1GiB`,
 *   `15d or 1GiB`).
 */
export interface RuntimeInfo {
  startTime: string;
  CWD: string;
  reloadConfigSuccess: boolean;
  lastConfigTime: string;
  corruptionCount: number;
  goroutineCount: number;
  GOMAXPROCS: number;
  GOGC: string;
  GODEBUG: string;
  storageRetention: string;
}

const GC_OPTION = /^--(?:(?:max|min)[-_](?:old|semi|young)[-_](?:space|generation)[-_]size|gc[-_])/;

/** The runtime information as `/api/v1/status/runtimeinfo` answers it. */
export function runtimeInfo(sources: RuntimeSources): RuntimeInfo {
  const reload = sources.lastReload();
  return {
    startTime: formatRfc3339Nano(sources.startedAt),
    CWD: sources.cwd,
    reloadConfigSuccess: reload.successful,
    lastConfigTime: formatRfc3339Nano(Math.floor(reload.successAt / 1000) * 1000),
    corruptionCount: sources.corruptions(),
    goroutineCount: sources.threads(),
    GOMAXPROCS: sources.cpus,
    GOGC: sources.nodeOptions.filter((option) => GC_OPTION.test(option)).join(' '),
    GODEBUG: sources.nodeDebug,
    storageRetention: storageRetention(sources.retention.timeMs, sources.retention.bytes),
  };
}

/** Upstream's wording of the retention: the time, the size, or both joined by ` or `. */
export function storageRetention(timeMs: number, bytes: number): string {
  const parts: string[] = [];
  if (timeMs > 0 && Number.isFinite(timeMs)) parts.push(formatDuration(timeMs));
  if (bytes > 0) parts.push(formatBase2Bytes(bytes));
  return parts.join(' or ');
}

/** The V8 and Node options of this process: its command line's, then `NODE_OPTIONS`'s. */
export function processNodeOptions(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env['NODE_OPTIONS'] ?? '',
): string[] {
  return [...execArgv, ...nodeOptions.split(/\s+/).filter((option) => option !== '')];
}
