import type { InstrumentationBase } from '@opentelemetry/instrumentation';

const load: NodeJS.Require = require;

/** The parts of a module definition of `@opentelemetry/instrumentation` applied here. */
interface Definition {
  name: string;
  patch?: (exports: unknown, version?: string) => unknown;
  unpatch?: (exports: unknown, version?: string) => void;
  files: {
    name: string;
    supportedVersions: string[];
    patch: (exports: unknown, version?: string) => unknown;
    unpatch: (exports?: unknown, version?: string) => void;
  }[];
}

/**
 * Applies an OpenTelemetry instrumentation to the modules as they are loaded here. Its own
 * require hook does not see Jest's module registry, so the test does what the hook would do on
 * loading each module: the definition's patch for the package, and each file's patch for its
 * file. Returns the undo.
 */
export function applyInstrumentation(
  instrumentation: InstrumentationBase,
  packages: Record<string, { version: string; files?: string[] }>,
): () => void {
  const undo: (() => void)[] = [];
  const definitions = (
    instrumentation as unknown as { getModuleDefinitions(): Definition[] }
  ).getModuleDefinitions();
  for (const definition of definitions) {
    const wanted = packages[definition.name];
    if (wanted === undefined) continue;
    if (definition.patch !== undefined) {
      const exports = load(definition.name) as unknown;
      definition.patch(exports, wanted.version);
      undo.push(() => definition.unpatch?.(exports, wanted.version));
    }
    for (const file of definition.files) {
      if (!(wanted.files ?? []).includes(file.name)) continue;
      const exports = load(file.name) as unknown;
      file.patch(exports, wanted.version);
      undo.push(() => file.unpatch(exports, wanted.version));
    }
  }
  return () => {
    for (const step of undo.reverse()) step();
  };
}
