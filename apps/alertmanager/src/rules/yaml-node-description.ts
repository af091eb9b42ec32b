import { isMap, isScalar, isSeq, type Node } from 'yaml';

/** yaml.v3's description of a node in "cannot unmarshal" errors: `!!seq`, ``!!str `abc` ``. */
export function describeYamlNode(node: Node): string {
  if (isSeq(node)) return '!!seq';
  if (isMap(node)) return '!!map';
  if (isScalar(node)) {
    const value = node.value;
    const tag =
      typeof value === 'number'
        ? Number.isInteger(value)
          ? '!!int'
          : '!!float'
        : typeof value === 'boolean'
          ? '!!bool'
          : '!!str';
    return `${tag} \`${String(node.source ?? value)}\``;
  }
  return '!!node';
}
