import { compareGoYamlKeys, goYamlScalar, goYamlScalarStyle } from './go-yaml-scalar';

/** A value to print: strings, numbers, booleans, null, lists, maps and flow lists. */
export type GoYamlValue =
  string | number | boolean | null | readonly GoYamlValue[] | GoYamlMap | GoYamlFlow;

/** A map with its keys in the order they print (a Go struct's field order). */
export class GoYamlMap {
  constructor(readonly entries: ReadonlyArray<readonly [string, GoYamlValue]>) {}
}

/** A list printed on one line, `[a, b]` (Prometheus's `source_labels`). */
export class GoYamlFlow {
  constructor(readonly items: readonly string[]) {}
}

/** A Go map: printed with its keys sorted as yaml.v2 sorts them. */
export function goMap(record: Readonly<Record<string, GoYamlValue>>): GoYamlMap {
  const keys = Object.keys(record).sort(compareGoYamlKeys);
  return new GoYamlMap(keys.map((key) => [key, record[key]] as const));
}

/**
 * Prints a document in the block style of Go's yaml.v2, as Prometheus prints its configuration:
 * two-space maps, lists not indented under their key, `[]`/`{}` for empty ones, strings quoted
 * only where yaml.v2 quotes them.
 */
export function writeGoYaml(root: GoYamlMap): string {
  const lines: string[] = [];
  writeMap(root, 0, lines);
  return lines.length === 0 ? '{}\n' : `${lines.join('\n')}\n`;
}

function writeMap(map: GoYamlMap, indent: number, lines: string[]): void {
  const pad = ' '.repeat(indent);
  for (const [key, value] of map.entries) {
    const head = `${pad}${goYamlScalar(key)}:`;
    if (value instanceof GoYamlMap && value.entries.length > 0) {
      lines.push(head);
      writeMap(value, indent + 2, lines);
    } else if (Array.isArray(value) && value.length > 0) {
      lines.push(head);
      writeSeq(value as readonly GoYamlValue[], indent, lines);
    } else {
      writeInline(head, value, indent, lines);
    }
  }
}

function writeSeq(items: readonly GoYamlValue[], indent: number, lines: string[]): void {
  const pad = ' '.repeat(indent);
  for (const item of items) {
    const nested =
      (item instanceof GoYamlMap && item.entries.length > 0) ||
      (Array.isArray(item) && item.length > 0);
    if (!nested) {
      writeInline(`${pad}-`, item, indent, lines);
      continue;
    }
    const start = lines.length;
    if (item instanceof GoYamlMap) writeMap(item, indent + 2, lines);
    else writeSeq(item as readonly GoYamlValue[], indent + 2, lines);
    // The first line of the nested block goes on the dash's line.
    lines[start] = `${pad}- ${lines[start].slice(indent + 2)}`;
  }
}

/** A value that fits after `head` on its line (multi-line strings follow as a literal block). */
function writeInline(head: string, value: GoYamlValue, indent: number, lines: string[]): void {
  if (value === null) lines.push(`${head} null`);
  else if (typeof value === 'number' || typeof value === 'boolean') lines.push(`${head} ${value}`);
  else if (value instanceof GoYamlMap) lines.push(`${head} {}`);
  else if (value instanceof GoYamlFlow) {
    lines.push(`${head} [${value.items.map((item) => goYamlScalar(item, true)).join(', ')}]`);
  } else if (Array.isArray(value)) lines.push(`${head} []`);
  else if (typeof value === 'string' && goYamlScalarStyle(value) === 'literal') {
    const body = value.endsWith('\n') ? value.slice(0, -1) : value;
    lines.push(`${head} |${value.endsWith('\n') ? '' : '-'}`);
    const pad = ' '.repeat(indent + 2);
    for (const line of body.split('\n')) lines.push(line === '' ? '' : `${pad}${line}`);
  } else lines.push(`${head} ${goYamlScalar(value as string)}`);
}
