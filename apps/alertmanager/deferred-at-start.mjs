// esbuild plugins for bundle.mjs: work that dependencies do when they load, which the server does
// not need before it is ready, moved to its first use (CONTRIBUTING.md, "The server's bundle").
import { readFileSync } from 'node:fs';

const FIRST_USE = 'loaded-on-first-use';

/**
 * Each of `packages`, required by a dependency at its top level but called only while a request
 * is served (mime-types builds its tables from mime-db's 200 KB of JSON as it loads; iconv-lite
 * is outside the bundle and loads through Node's resolver), becomes a stand-in that loads the
 * package when one of its properties is first read. Whoever required it sees the same functions
 * and tables from then on.
 */
export function loadedOnFirstUse(packages) {
  const names = new Set(packages);
  return {
    name: FIRST_USE,
    setup(build) {
      // A resolution that a plugin asks for itself (with its `pluginData`) is one made on behalf
      // of an import already resolved: it is left to the others. Registered before
      // one-copy-per-version.mjs, which resolves through `build.resolve` too.
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (!names.has(args.path) || args.namespace === FIRST_USE || args.pluginData !== undefined)
          return undefined;
        const real = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: FIRST_USE,
        });
        if (real.errors.length > 0) return undefined;
        // One stand-in per copy the import resolves to (a package outside the bundle: its name).
        const { path, external, namespace } = real;
        return {
          path: external ? args.path : path.slice(path.indexOf('node_modules')),
          namespace: FIRST_USE,
          pluginData: { path, external, namespace },
        };
      });
      // The stand-in's own `require`: the package as the dependency's import resolved it.
      build.onResolve({ filter: /.*/, namespace: FIRST_USE }, (args) => args.pluginData);
      build.onLoad({ filter: /.*/, namespace: FIRST_USE }, (args) => ({
        loader: 'js',
        pluginData: args.pluginData,
        contents: `
          let loaded;
          const real = () => (loaded ??= require(${JSON.stringify(args.path)}));
          module.exports = new Proxy({}, {
            get: (_, key) => real()[key],
            set: (_, key, value) => Reflect.set(real(), key, value),
            has: (_, key) => key in real(),
            ownKeys: () => Reflect.ownKeys(real()),
            getOwnPropertyDescriptor(_, key) {
              const own = Reflect.getOwnPropertyDescriptor(real(), key);
              return own && { ...own, configurable: true };
            },
          });
        `,
      }));
    },
  };
}

/**
 * Nest's `Logger` and `ConsoleLogger` each build an `Intl.DateTimeFormat` as their modules load,
 * the first of which loads ICU's locale data; the server logs through its own logger and never
 * formats a date there. Each formatter is built when it first formats. Fails the build when a
 * module no longer reads as expected, so that an upgrade of Nest is looked at.
 */
export function nestDateFormatOnFirstUse() {
  const file = /@nestjs[\\/]common[\\/]services[\\/](console-)?logger\.service\.js$/;
  const eager = 'const dateTimeFormatter = new Intl.DateTimeFormat(';
  return {
    name: 'nest-date-format-on-first-use',
    setup(build) {
      build.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const at = source.indexOf(eager);
        if (
          at < 0 ||
          source.indexOf(eager, at + 1) >= 0 ||
          !source.includes('dateTimeFormatter.format(')
        ) {
          throw new Error(`${args.path}: its date formatter is no longer built as expected`);
        }
        const deferred =
          'const dateTimeFormatter = ((...options) => { let made; ' +
          'return { format: (date) => (made ??= new Intl.DateTimeFormat(...options)).format(date) }; })(';
        return { loader: 'js', contents: source.replace(eager, deferred) };
      });
    },
  };
}
