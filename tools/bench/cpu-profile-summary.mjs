// Sums a V8 CPU profile's self time by where the code comes from (the OpenTelemetry SDK and API,
// @redisx/tracing, ioredis, Node's own modules, garbage collection), as shares of the busy time,
// and lists the heaviest functions of the tracing code (the library's and the SDK's).

const SOURCES = [
  ['OpenTelemetry SDK', /@opentelemetry\/(sdk-trace|core|resources)/],
  ['OpenTelemetry API and context', /@opentelemetry\/(api|context-async-hooks)/],
  ['@redisx/tracing', /libs\/tracing\/dist/],
  ['ioredis', /\/ioredis\//],
  ['the benchmark itself', /tools\/bench/],
];

function sourceOf(frame) {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(program)') return 'V8 (program)';
  if (frame.functionName === '(idle)') return '(idle)';
  for (const [name, pattern] of SOURCES) if (pattern.test(frame.url)) return name;
  return 'Node.js and the rest';
}

/** `{ sources: [[name, share]], functions: [[name, share]] }`, heaviest first. */
export function summariseCpuProfile(profile, topFunctions = 12) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const bySource = new Map();
  const byFunction = new Map();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const frame = nodes.get(id).callFrame;
    const source = sourceOf(frame);
    const micros = profile.timeDeltas[index] ?? 0;
    if (source === '(idle)') return;
    busy += micros;
    bySource.set(source, (bySource.get(source) ?? 0) + micros);
    if (source === 'OpenTelemetry SDK' || source === '@redisx/tracing') {
      const file = frame.url.split('/').pop();
      const name = `${source}: ${frame.functionName || '(anonymous)'} (${file})`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    }
  });
  const shares = (map) =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).map(([name, micros]) => [name, micros / busy]);
  return { sources: shares(bySource), functions: shares(byFunction).slice(0, topFunctions) };
}
