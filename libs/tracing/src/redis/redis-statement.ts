import { exists, getKeyIndexes } from '@ioredis/commands';

/** What the statement builder knows about a command name, computed once per name. */
export interface CommandInfo {
  /** Upper case, as in span names and attributes. */
  name: string;
  spanName: string;
  /** Lower case, as in the command table. */
  lower: string;
  known: boolean;
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
    info = { name, spanName: `redis.${name}`, lower, known: exists(lower), keep };
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
