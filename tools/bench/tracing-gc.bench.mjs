// Redis command tracing without the socket: the CPU per GET of ioredis's own command path with
// the reply handed back in-process (the client's `sendCommand` is replaced by one that resolves
// the command on the next microtask), so that what tracing adds is not buried under socket
// writes. Variants: untraced, the floor tracer of tracing-redis.bench.mjs in a bare process and in
// a Nest application with the module loaded (command tracing off), and @redisx/tracing; each under
// V8's default flags and again with `--no-allocation-site-pretenuring`; from V8's sampling heap
// profiler, the bytes per GET that outlived a minor GC (the young generation's survivors, which
// make scavenges slow and end up in the old generation); and in how many processes V8 had
// pretenured the SDK's span objects (a span's context allocated in the old generation).
// Runs in about two minutes. With `--profile`, instead: where the CPU of the measured GETs goes
// (V8's sampling CPU profiler, 100 µs), by source and by function, for the library and the floor.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fmt, median, requireFromRepo } from './bench-support.mjs';
import { summariseCpuProfile } from './cpu-profile-summary.mjs';
import { floorGet, registerNoopSdk, startTracingApp } from './tracing-support.mjs';

const here = fileURLToPath(import.meta.url);
const IN_FLIGHT = 100;
const WARMUP = 50_000;
const MEASURED = 300_000;
const ROUNDS = 5;
const VARIANTS = {
  untraced: 'ioredis, no tracing',
  floor: 'floor, bare process',
  floorNest: 'floor, in the Nest application (command tracing off)',
  library: '@redisx/tracing',
};
/** Whether V8 allocates `object` in its young generation (workers run with natives syntax). */
let youngCheck;
const inYoungGeneration = (object) => {
  youngCheck ??= new Function('object', 'return %InYoungGeneration(object)');
  return youngCheck(object);
};
const FLAGS = { default: [], 'no pretenuring': ['--no-allocation-site-pretenuring'] };

async function worker(variant, mode) {
  const Redis = requireFromRepo('ioredis').default;
  // Installed before any tracer wraps it, as a connection's reply path would be.
  Redis.prototype.sendCommand = function (command) {
    queueMicrotask(() => command.resolve(Buffer.from('value')));
    return command.promise;
  };
  let app;
  let probe;
  if (variant !== 'untraced') {
    // Looks at one span in 500 while measuring: is its context in V8's old generation? V8 decides
    // per allocation site, so the SDK's site of span contexts tells for all spans.
    probe = {
      seen: 0,
      old: 0,
      measuring: false,
      onStart(span) {
        if (!this.measuring || ++this.seen % 500 !== 0) return;
        if (!inYoungGeneration(span.spanContext())) this.old++;
      },
      onEnd: () => undefined,
      shutdown: async () => undefined,
      forceFlush: async () => undefined,
    };
    registerNoopSdk([probe]);
  }
  if (variant === 'library' || variant === 'floorNest') {
    app = await startTracingApp(variant === 'library');
  }
  const client = new Redis({ lazyConnect: true, host: '127.0.0.1', port: 6379 });
  client.status = 'ready';
  const key = 'redisx-bench:key';
  let get = () => client.get(key);
  if (variant === 'floor' || variant === 'floorNest') get = floorGet(client, key);
  const drive = async (total) => {
    let issued = 0;
    const lane = async () => {
      while (issued < total) {
        issued++;
        await get();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  };
  await drive(WARMUP);
  // The plain CPU runs have no inspector session attached.
  let session;
  if (mode !== undefined) {
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
  }
  if (mode === 'profile') {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  if (mode === 'survivors') {
    await session.post('HeapProfiler.enable');
    // Only what outlives a minor GC is kept in the profile.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
  }
  if (probe) probe.measuring = true;
  const cpu = process.cpuUsage();
  await drive(MEASURED);
  const used = process.cpuUsage(cpu);
  const result = { variant, cpuNanosPerOp: ((used.user + used.system) * 1000) / MEASURED };
  if (mode === 'profile') {
    const { profile } = await session.post('Profiler.stop');
    result.profile = summariseCpuProfile(profile);
  }
  if (mode === 'survivors') {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    let bytes = 0;
    const walk = (node) => {
      bytes += node.selfSize;
      for (const child of node.children) walk(child);
    };
    walk(profile.head);
    result.survivedBytesPerOp = bytes / MEASURED;
  }
  if (probe) result.pretenured = probe.old > probe.seen / 1000;
  await app?.close();
  console.log(JSON.stringify(result));
  process.exit(0);
}

function run(flags, args) {
  const child = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', ...flags, here, '--worker', ...args],
    {
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (child.status !== 0) throw new Error(`worker ${args.join(' ')} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

function main() {
  console.log(`${IN_FLIGHT} GETs in flight, answered in-process; ${MEASURED} measured per run`);
  const cpu = {};
  const pretenured = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [flagName, flags] of Object.entries(FLAGS)) {
      for (const variant of Object.keys(VARIANTS)) {
        const key = `${variant}|${flagName}`;
        const result = run(flags, [variant]);
        (cpu[key] ??= []).push(result.cpuNanosPerOp);
        pretenured[key] = (pretenured[key] ?? 0) + (result.pretenured ? 1 : 0);
      }
    }
  }
  console.log(
    `  ${'variant'.padEnd(54)} ${'V8 flags'.padEnd(15)} CPU/GET  survived/GET  spans pretenured`,
  );
  for (const [flagName, flags] of Object.entries(FLAGS)) {
    for (const [variant, label] of Object.entries(VARIANTS)) {
      const key = `${variant}|${flagName}`;
      const survived = `${fmt(run(flags, [variant, 'survivors']).survivedBytesPerOp, 0)} B`;
      const ns = `${fmt(median(cpu[key]) / 1000, 2)} µs`.padStart(8);
      const tenured = variant === 'untraced' ? '' : `${pretenured[key]} of ${ROUNDS} runs`;
      console.log(
        `  ${label.padEnd(54)} ${flagName.padEnd(15)} ${ns}  ${survived.padStart(11)}  ${tenured}`,
      );
    }
  }
  const traced = (variant, flagName) =>
    median(cpu[`${variant}|${flagName}`]) - median(cpu[`untraced|${flagName}`]);
  for (const flagName of Object.keys(FLAGS)) {
    console.log(
      `tracing's CPU per GET (${flagName}), library / floor in the Nest application: ` +
        fmt(traced('library', flagName) / traced('floorNest', flagName), 2),
    );
  }
}

/** Where the measured GETs' CPU goes, in the library's process and the floor's. */
function profile() {
  for (const variant of ['library', 'floorNest']) {
    const { cpuNanosPerOp, profile: summary } = run([], [variant, 'profile']);
    console.log(`${VARIANTS[variant]}: ${fmt(cpuNanosPerOp / 1000, 2)} µs CPU per GET`);
    for (const [name, share] of [...summary.sources, ...summary.functions]) {
      console.log(`  ${name.padEnd(72)} ${fmt(share * 100, 1).padStart(5)}%`);
    }
  }
}

const [flag, variant, mode] = process.argv.slice(2);
if (flag === '--worker') await worker(variant, mode);
else if (flag === '--profile') profile();
else main();
