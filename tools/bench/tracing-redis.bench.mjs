// Redis command tracing: GET throughput against a local Redis with 100 commands in flight, for
// untraced ioredis, a floor tracer (each GET starts and ends one span with the attributes every
// command span must carry, nothing else), @redisx/tracing, @redisx/tracing with
// traceRedisCommands: false, and @opentelemetry/instrumentation-ioredis; all tracers on the same
// SDK (NodeTracerProvider, BatchSpanProcessor, an exporter that drops everything), each traced
// variant inside the same Nest application with the module loaded. Each variant runs in its own
// process, five rounds interleaved, median reported. Then the heap of a process
// that sent 1,000,000 traced commands. Stops by itself in about two minutes; loopback only.
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, median, requireFromRepo, runWorker } from './bench-support.mjs';
import { floorGet, registerNoopSdk, startTracingApp } from './tracing-support.mjs';

const here = fileURLToPath(import.meta.url);
const IN_FLIGHT = 100;
const WARMUP = 20_000;
const MEASURED = 150_000;
const HEAP_COMMANDS = 1_000_000;
const ROUNDS = 5;

const VARIANTS = {
  untraced: 'ioredis, no tracing',
  floor: 'floor: one span per GET with the required attributes',
  library: '@redisx/tracing',
  off: '@redisx/tracing, traceRedisCommands: false',
  otel: '@opentelemetry/instrumentation-ioredis 0.71.0',
};

/** Sends `total` GETs with IN_FLIGHT awaiting at once through `get`; returns commands per second. */
async function drive(get, total) {
  let issued = 0;
  const start = process.hrtime.bigint();
  const lane = async () => {
    while (issued < total) {
      issued++;
      await get();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return total / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function worker(variant, url, commands) {
  let provider;
  let app;
  let instrumentation;
  if (variant !== 'untraced') provider = registerNoopSdk();
  if (variant === 'otel') {
    const { registerInstrumentations } = requireFromRepo('@opentelemetry/instrumentation');
    const { IORedisInstrumentation } = requireFromRepo('@opentelemetry/instrumentation-ioredis');
    instrumentation = new IORedisInstrumentation({ requireParentSpan: false });
    registerInstrumentations({ instrumentations: [instrumentation] });
  }
  const Redis = requireFromRepo('ioredis').default;
  // Every traced variant runs in the same kind of process, a Nest application with the module
  // loaded (command tracing on for the library only): V8 pretenures the SDK's span objects in
  // such processes more often than in a bare one (see tracing-gc.bench.mjs).
  if (variant !== 'untraced') app = await startTracingApp(variant === 'library');
  const client = new Redis(url);
  const key = `redisx-bench:${process.pid}`;
  await client.set(key, 'value');
  let get = () => client.get(key);
  if (variant === 'floor') get = floorGet(client, key);
  const result = { variant };
  if (commands === undefined) {
    await drive(get, WARMUP);
    let gcMs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcMs += entry.duration;
    });
    observer.observe({ entryTypes: ['gc'] });
    const cpu = process.cpuUsage();
    result.opsPerSec = await drive(get, MEASURED);
    const used = process.cpuUsage(cpu);
    observer.disconnect();
    result.cpuMicrosPerOp = (used.user + used.system) / MEASURED;
    result.gcMicrosPerOp = (gcMs * 1000) / MEASURED;
  } else {
    await drive(get, 100_000);
    await provider?.forceFlush();
    global.gc();
    result.heapAfter100k = process.memoryUsage().heapUsed;
    await drive(get, commands - 100_000);
    await provider?.forceFlush();
    global.gc();
    result.heapAfter1M = process.memoryUsage().heapUsed;
  }
  await client.del(key);
  client.disconnect();
  await app?.close();
  instrumentation?.disable();
  await provider?.shutdown();
  console.log(JSON.stringify(result));
}

async function main() {
  const { provideRedis } = requireFromRepo('./libs/testing/dist/index.js');
  const redis = await provideRedis();
  try {
    console.log(`Redis ${redis.url}; ${IN_FLIGHT} GETs in flight; ${MEASURED} measured per run`);
    const runs = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
    const cpu = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
    const gc = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of Object.keys(VARIANTS)) {
        const result = runWorker(here, ['--worker', name, redis.url]);
        runs[name].push(result.opsPerSec);
        cpu[name].push(result.cpuMicrosPerOp);
        gc[name].push(result.gcMicrosPerOp);
      }
    }
    const ops = Object.fromEntries(
      Object.entries(runs).map(([name, list]) => [name, median(list)]),
    );
    console.log(`  ${'variant'.padEnd(54)} GET/s    CPU/GET   GC/GET  (runs, k GET/s)`);
    for (const [name, label] of Object.entries(VARIANTS)) {
      const list = runs[name].map((value) => fmt(value / 1000)).join(', ');
      const micros = `${fmt(median(cpu[name]), 2)} µs`.padStart(9);
      const gcMicros = `${fmt(median(gc[name]), 2)} µs`.padStart(8);
      const rate = `${fmt(ops[name] / 1000)}k`.padStart(7);
      console.log(`  ${label.padEnd(54)} ${rate} ${micros} ${gcMicros}  (${list})`);
    }
    const ratio = (a, b) => fmt(ops[a] / ops[b], 3);
    console.log(`library / floor:                 ${ratio('library', 'floor')} (target >= 0.95)`);
    console.log(`library / instrumentation-ioredis: ${ratio('library', 'otel')} (target >= 1.30)`);
    console.log(`traceRedisCommands off / untraced: ${ratio('off', 'untraced')} (target >= 0.98)`);
    console.log(`floor / untraced:                ${ratio('floor', 'untraced')}`);
    const cpuRatio = (a, b) => fmt(median(cpu[a]) / median(cpu[b]), 3);
    console.log(`client CPU per GET, library / floor: ${cpuRatio('library', 'floor')}`);
    console.log(
      `client CPU per GET, library / instrumentation-ioredis: ${cpuRatio('library', 'otel')}`,
    );
    const heap = runWorker(here, ['--worker', 'library', redis.url, String(HEAP_COMMANDS)]);
    const mb = (bytes) => fmt(bytes / 1024 / 1024, 2);
    console.log(
      `heap with @redisx/tracing: ${mb(heap.heapAfter100k)} MB after 100,000 commands, ` +
        `${mb(heap.heapAfter1M)} MB after ${HEAP_COMMANDS.toLocaleString('en')} ` +
        `(growth ${mb(heap.heapAfter1M - heap.heapAfter100k)} MB)`,
    );
  } finally {
    await redis.stop();
  }
}

const [flag, variant, url, commands] = process.argv.slice(2);
if (flag === '--worker') await worker(variant, url, commands && Number(commands));
else await main();
