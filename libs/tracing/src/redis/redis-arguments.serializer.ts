import { argText, type CommandInfo } from './redis-statement';

/** Cuts `text` to `max` characters, the last three being `...` when something was cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/**
 * `db.statement.args`: the arguments as a JSON array, with the credentials of AUTH, HELLO and
 * MIGRATE replaced by `?` even though arguments were asked for.
 */
export function serializeArgs(info: CommandInfo, args: readonly unknown[], max: number): string {
  const texts = args.map(argText);
  if (info.name === 'AUTH') texts.fill('?');
  else if (info.name === 'HELLO' || info.name === 'MIGRATE') maskAfterAuth(info.name, texts);
  return truncate(JSON.stringify(texts), max);
}

/** `AUTH [user] <password>` inside HELLO, `AUTH <password>`/`AUTH2 <user> <password>` in MIGRATE. */
function maskAfterAuth(command: string, texts: string[]): void {
  for (let i = 0; i < texts.length; i++) {
    const word = texts[i].toUpperCase();
    const secrets =
      word === 'AUTH2' || (word === 'AUTH' && command === 'HELLO') ? 2 : word === 'AUTH' ? 1 : 0;
    texts.fill('?', i + 1, i + 1 + secrets);
    i += secrets;
  }
}

/** `db.statement.result`: a reply as JSON, buffers decoded as UTF-8. */
export function serializeResult(value: unknown, max: number): string {
  const text =
    typeof value === 'string' || Buffer.isBuffer(value)
      ? argText(value)
      : (JSON.stringify(value, (_key, item: unknown) =>
          isSerializedBuffer(item) ? Buffer.from(item.data).toString('utf8') : item,
        ) ?? String(value));
  return truncate(text, max);
}

function isSerializedBuffer(item: unknown): item is { type: 'Buffer'; data: number[] } {
  return (
    typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'Buffer'
  );
}
