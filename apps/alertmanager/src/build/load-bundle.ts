import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script, constants } from 'node:vm';

/** Where a bundle's V8 code cache sits: beside it. */
export const codeCacheFile = (bundle: string): string => `${bundle}.cache`;

/** A bundle compiled, not yet run. */
export interface CompiledBundle {
  readonly script: Script;
  /** Runs the bundle's top level once, as Node runs a CommonJS file; its `module.exports`. */
  run(): unknown;
}

/**
 * Compiles a bundled CommonJS file as Node's loader would (the same wrapper, `require` resolving
 * from the bundle's folder, `__dirname` its folder), with `cachedData` when given. V8 checks the
 * cache against its version, flags and the source, and compiles afresh when it does not fit.
 */
export function compileBundle(file: string, cachedData?: Buffer): CompiledBundle {
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
    // `import()` inside the bundle (Nest's loader of ESM-only packages) as in any CommonJS file.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return {
    script,
    run() {
      const module = new Module(file);
      module.filename = file;
      const factory = script.runInThisContext() as (...args: unknown[]) => void;
      factory.call(
        module.exports,
        module.exports,
        createRequire(file),
        module,
        file,
        dirname(file),
      );
      module.loaded = true;
      return module.exports;
    },
  };
}

/**
 * Loads the server's bundle (or a query thread's) with its code cache: the cache holds the
 * compiled code of the functions that loading runs, so start-up neither resolves ~1,500 module
 * files nor compiles their code again. Without a cache, or with one for another Node, it loads as
 * any file does, only without the cache's gain. Under `node --enable-source-maps` it loads through
 * Node's own loader, which maps stack traces through the bundle's source map.
 */
export function loadBundle(file: string): unknown {
  // Node maps stack traces only for code its own loader compiled (without a code cache).
  if (process.sourceMapsEnabled) return createRequire(file)(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCacheFile(file));
  } catch {
    cachedData = undefined;
  }
  return compileBundle(file, cachedData).run();
}

/**
 * Writes `file`'s code cache. With `run`, the bundle's top level runs first so that the cache
 * holds every function loading compiles; a thread's entry, which only works inside its thread, is
 * cached as compiled. The file is replaced whole (a reader never sees half a cache).
 */
export function writeCodeCache(file: string, run: boolean): number {
  const bundle = compileBundle(file);
  if (run) bundle.run();
  const data = bundle.script.createCachedData();
  const target = codeCacheFile(file);
  writeFileSync(`${target}.tmp`, data);
  renameSync(`${target}.tmp`, target);
  return data.length;
}
