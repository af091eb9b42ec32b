import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..', '..');
const MAP = JSON.parse(readFileSync(join(__dirname, '..', 'architecture.json'), 'utf8')) as {
  layers: Record<string, string[]>;
};

/** The folder -> imports table between the layer markers of CONTRIBUTING.md. */
function contributingTable(): Record<string, string[]> {
  const text = readFileSync(join(REPO, 'CONTRIBUTING.md'), 'utf8');
  const section = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(text)?.[1] ?? '';
  const table: Record<string, string[]> = {};
  for (const line of section.split('\n')) {
    const cells = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!cells) continue;
    const name = (cell: string) => cell.replace(/\/$/, '').replace(/\.ts$/, '');
    table[name(cells[1])] = [...cells[2].matchAll(/`([^`]+)`/g)].map((m) => name(m[1]));
  }
  return table;
}

/** ESLint's findings for `source` as if it were the file `path` of the repository. */
function lint(path: string, source: string): Array<{ ruleId: string; message: string }> {
  const eslint = join(REPO, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const result = spawnSync(
    process.execPath,
    [eslint, '--format', 'json', '--stdin', '--stdin-filename', join(REPO, path)],
    { cwd: REPO, input: source, encoding: 'utf8' },
  );
  // Nx's boundary rule may print a warning before the report when its project graph is not cached.
  const [report] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[{'))) as Array<{
    messages: Array<{ ruleId: string; message: string }>;
  }>;
  return report.messages;
}

describe('the architecture map', () => {
  it('is the same in CONTRIBUTING.md and in architecture.json', () => {
    expect(contributingTable()).toEqual(MAP.layers);
  });

  it('names every top-level folder of src/', () => {
    const entries = readdirSync(join(__dirname, '..', 'src'), { withFileTypes: true })
      .map((e) => (e.isDirectory() ? e.name : e.name.replace(/\.ts$/, '')))
      .sort();
    expect(entries).toEqual(Object.keys(MAP.layers).sort());
  });

  it.each([
    [
      'an import that runs back up',
      'apps/alertmanager/src/labels/example.ts',
      "import type { Alert } from '../alerts/alert.model';\nexport type A = Alert;\n",
      '`labels/` may not import `alerts/`: the architecture map (apps/alertmanager/architecture.json, CONTRIBUTING.md) lets it import `re2/`.',
    ],
    [
      'a re-export that runs back up',
      'apps/alertmanager/src/alerts/example.ts',
      "export { Dispatcher } from '../dispatch/dispatcher';\n",
      '`alerts/` may not import `dispatch/`: the architecture map (apps/alertmanager/architecture.json, CONTRIBUTING.md) lets it import `labels/`, `logging/`, `storage/`, `time/`.',
    ],
    [
      'a folder the map does not know',
      'apps/alertmanager/src/newthing/example.ts',
      "export { formatLabelSet } from '../labels';\n",
      '`newthing/` is not in the architecture map (apps/alertmanager/architecture.json, CONTRIBUTING.md): add it there first.',
    ],
  ])('fails lint on %s', (_name, path, source, message) => {
    const findings = lint(path, source).filter((m) => m.ruleId === 'local/layered-imports');
    expect(findings.map((m) => m.message)).toEqual([message]);
  });

  it('passes an import that follows the map, and any import in a spec', () => {
    const down = "import type { Matcher } from '../labels';\nexport type M = Matcher;\n";
    expect(lint('apps/alertmanager/src/alerts/example.ts', down)).toEqual([]);
    const up =
      "import { Dispatcher } from '../dispatch/dispatcher';\nexport const D = Dispatcher;\n";
    expect(lint('apps/alertmanager/src/alerts/example.spec.ts', up)).toEqual([]);
  });
});
