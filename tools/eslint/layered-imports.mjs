// A lint rule that keeps the import arrows of a package's src/ pointing the way its architecture
// map says: each top-level folder (or top-level file, by its name without extension) may import
// only the folders its entry lists. An import of another folder, or a folder the map does not
// know, is an error naming the map.
import { dirname, relative, resolve, sep } from 'node:path';

/** Top-level folder (or file name without extension) of `path` under `root`, or undefined. */
function layerOf(root, path) {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..')) return undefined;
  const [first, ...rest] = rel.split(sep);
  return rest.length > 0 ? first : first.replace(/\.[cm]?[jt]s$/, '');
}

/** The rule: options `{ root, layers, map }` (absolute src path, folder -> allowed folders). */
export const layeredImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between the folders of src/ follow the architecture map.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'object' },
          map: { type: 'string' },
        },
        required: ['root', 'layers', 'map'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        '`{{from}}/` may not import `{{to}}/`: the architecture map ({{map}}) lets it import {{allowed}}.',
      unknown: '`{{from}}/` is not in the architecture map ({{map}}): add it there first.',
    },
  },
  create(context) {
    const { root, layers, map } = context.options[0];
    const filename = context.filename;
    const from = layerOf(root, filename);
    if (from === undefined) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = layerOf(root, resolve(dirname(filename), spec));
      if (to === undefined || to === from) return;
      const allowed = layers[from];
      if (!allowed) {
        context.report({ node, messageId: 'unknown', data: { from, map } });
      } else if (!allowed.includes(to)) {
        const list = allowed.length ? allowed.map((l) => `\`${l}/\``).join(', ') : 'nothing';
        context.report({ node, messageId: 'upward', data: { from, to, map, allowed: list } });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The plugin, for `plugins: { local: plugin }` in eslint.config.mjs. */
export default { rules: { 'layered-imports': layeredImports } };
