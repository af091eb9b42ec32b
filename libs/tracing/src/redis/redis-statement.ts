import { getKeyIndexes } from '@ioredis/commands';
import commandTable from '@ioredis/commands/built/commands.json';

/** What the statement builder knows about a command name, computed once per name. */
export interface CommandInfo {
  /** Upper case, as in span names and attributes. */
  name: string;
  spanName: string;
  /** Lower case, as in the command table. */
  lower: string;
  known: boolean;
  /**
   * Fixed key positions from Redis's command table (0-based, `last` negative counts from the
   * end), or undefined when the keys move with the arguments (EVAL, XREAD, sub-commands), in
   * which case the table's parser finds them.
   */
  keys: { first: number; last: number; step: number } | null | undefined;
  /** Argument positions kept as given besides keys: sub-commands and Pub/Sub channels. */
  keep: 'none' | 'first' | 'all';
}

// Containers whose first argument names a sub-command (`CONFIG GET`, `CLIENT SETNAME`).
const CONTAINERS = new Set([
  'ACL',
  'CLIENT',
  'CLUSTER',
  'COMMAND',
  'CONFIG',
  'DEBUG',
  'FUNCTION',
  'LATENCY',
  'MEMORY',
  'MODULE',
  'OBJECT',
  'PUBSUB',
  'SCRIPT',
  'SLOWLOG',
  'XGROUP',
  'XINFO',
]);
// Channels are not keys in Redis's command table, but they name what the command acts on.
const CHANNEL_LISTS = new Set([
  'SUBSCRIBE',
  'PSUBSCRIBE',
  'SSUBSCRIBE',
  'UNSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SUNSUBSCRIBE',
]);
const CHANNEL_FIRST = new Set(['PUBLISH', 'SPUBLISH']);

const infos = new Map<string, CommandInfo>();

interface TableEntry {
  flags: string[];
  keyStart: number;
  keyStop: number;
  step: number;
  subcommands?: unknown;
}

/** null: no keys; undefined: keys found by parsing the arguments. */
function keySpec(meta: TableEntry | undefined): CommandInfo['keys'] {
  if (meta === undefined || meta.subcommands !== undefined || meta.flags.includes('movablekeys')) {
    return undefined;
  }
  if (meta.keyStart <= 0) return null;
  const last = meta.keyStop < 0 ? meta.keyStop : meta.keyStop - 1;
  return { first: meta.keyStart - 1, last, step: Math.max(meta.step, 1) };
}

/** Facts about `command` (any case). */
export function commandInfo(command: string): CommandInfo {
  let info = infos.get(command);
  if (info === undefined) {
    const name = command.toUpperCase();
    const lower = command.toLowerCase();
    const keep = CHANNEL_LISTS.has(name)
      ? 'all'
      : CONTAINERS.has(name) || CHANNEL_FIRST.has(name)
        ? 'first'
        : 'none';
    const meta = (commandTable as Record<string, TableEntry>)[lower];
    info = {
      name,
      spanName: `redis.${name}`,
      lower,
      known: meta !== undefined,
      keys: keySpec(meta),
      keep,
    };
    infos.set(command, info);
  }
  return info;
}

/** `db.statement` and `db.redis.key` of one command. */
export interface Statement {
  statement: string;
  /** The key when the command has exactly one. */
  key: string | undefined;
}

/**
 * The command with its keys (and sub-command or channels) as given and every other argument
 * replaced by `?`, so values and credentials never reach a span: `SET user:1 ?`, `AUTH ? ?`.
 */
export function buildStatement(info: CommandInfo, args: readonly unknown[]): Statement {
  const count = args.length;
  if (count === 0) return { statement: info.name, key: undefined };
  if (info.keys !== undefined) return fixedKeyStatement(info, args);
  const keys = keyIndexes(info, args);
  let statement = info.name;
  let key: string | undefined;
  let next = 0;
  for (let i = 0; i < count; i++) {
    const isKey = keys !== undefined && keys[next] === i;
    if (isKey) next++;
    if (isKey || info.keep === 'all' || (i === 0 && info.keep === 'first')) {
      const text = argText(args[i]);
      statement += ` ${text}`;
      if (isKey) key = keys.length === 1 ? text : undefined;
    } else {
      statement += ' ?';
    }
  }
  return { statement, key };
}

/** The common case (GET, SET, HSET, MSET, ...): key positions straight from the table, no arrays. */
function fixedKeyStatement(info: CommandInfo, args: readonly unknown[]): Statement {
  const count = args.length;
  const spec = info.keys;
  const first = spec ? spec.first : count;
  const last = spec ? (spec.last < 0 ? count + spec.last : spec.last) : -1;
  const step = spec ? spec.step : 1;
  let statement = info.name;
  let key: string | undefined;
  let keyCount = 0;
  for (let i = 0; i < count; i++) {
    const isKey = i >= first && i <= last && (i - first) % step === 0;
    if (isKey || info.keep === 'all' || (i === 0 && info.keep === 'first')) {
      const text = argText(args[i]);
      statement += ` ${text}`;
      if (isKey && keyCount++ === 0) key = text;
    } else {
      statement += ' ?';
    }
  }
  return { statement, key: keyCount === 1 ? key : undefined };
}

function keyIndexes(info: CommandInfo, args: readonly unknown[]): number[] | undefined {
  if (!info.known) return undefined;
  try {
    return getKeyIndexes(info.lower, args as (string | Buffer | number)[]);
  } catch {
    // The table cannot parse this argument list (a malformed command); keep no keys.
    return undefined;
  }
}

/** One argument as text: strings as given, buffers decoded as UTF-8. */
export function argText(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (Buffer.isBuffer(arg)) return arg.toString('utf8');
  return String(arg);
}
