import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeWhen, provideRedis } from '@redisx/testing';

const REPO = join(__dirname, '../../..');
const APPLICATION = join(__dirname, 'support/coexisting-application.cjs');
const manifest = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const RANGES: Record<string, string> = { ...manifest.dependencies, ...manifest.peerDependencies };

/**
 * What the application installs itself before it adds the package: every dependency and peer the
 * two share. `@ioredis/commands` comes with ioredis (6.x pins it exactly); `redis` is not used.
 */
const SHARED = Object.keys(RANGES).filter((name) => !['@ioredis/commands', 'redis'].includes(name));

/**
 * The first version of each range, with the NodeSDK whose packages these are (0.200.0 pins the
 * 2.0.0 of the stable packages and the 0.200.0 of the exporter).
 */
const LOWEST: Record<string, string> = {
  '@ioredis/commands': '1.1.0',
  '@nestjs/common': '11.0.0',
  '@nestjs/core': '11.0.0',
  '@opentelemetry/api': '1.9.0',
  '@opentelemetry/context-async-hooks': '2.0.0',
  '@opentelemetry/core': '2.0.0',
  '@opentelemetry/exporter-trace-otlp-proto': '0.200.0',
  '@opentelemetry/resources': '2.0.0',
  '@opentelemetry/sdk-trace-base': '2.0.0',
  '@opentelemetry/sdk-trace-node': '2.0.0',
  'class-validator': '0.14.0',
  ioredis: '5.0.0',
  'prom-client': '15.1.1',
  'reflect-metadata': '0.1.13',
  rxjs: '7.1.0',
};

/** The lowest version a range accepts: the package's ranges are written lowest first. */
function lowest(range: string): string {
  const version = /\d+\.\d+\.\d+/.exec(range)?.[0];
  if (version === undefined) throw new Error(`no version in the range "${range}"`);
  return version;
}

interface Consumer {
  name: string;
  /** What the application registers as its tracer provider (see coexisting-application.cjs). */
  sdk: string;
  install: string[];
}

// The newest row asks for whatever each range allows today, so that a release inside a range is
// tried once it is published.
const CONSUMERS: Consumer[] = [
  {
    name: 'lowest',
    sdk: '@opentelemetry/sdk-node',
    install: [
      ...Object.entries(LOWEST).map(([name, version]) => `${name}@${version}`),
      '@opentelemetry/sdk-node@0.200.0',
      '@nestjs/platform-express@11.0.0',
    ],
  },
  {
    name: 'newest',
    sdk: '@opentelemetry/sdk-trace-node',
    install: [
      ...SHARED.map((name) => `${name}@${RANGES[name]}`),
      `@nestjs/platform-express@${RANGES['@nestjs/core']}`,
    ],
  },
];

/** Whether the npm registry answers; the suite installs from it. */
function registryAnswers(): boolean {
  const ping = ['ping', '--fetch-timeout=10000', '--fetch-retries=0', '--loglevel=error'];
  return spawnSync('npm', ping, { stdio: 'ignore', timeout: 20_000 }).status === 0;
}

/** Runs a command to completion; a non-zero exit fails with the command's output. */
async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  const options = {
    cwd,
    encoding: 'utf8' as const,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ...env },
  };
  try {
    return (await promisify(execFile)(command, args, options)).stdout;
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} exited ${code}\n${stdout}${stderr}`);
  }
}

/** Installs what the application has, then the tarball, as adding a package to it does. */
async function createConsumer(dir: string, consumer: Consumer, tarball: string): Promise<void> {
  await mkdir(dir);
  const application = {
    name: `tracing-${consumer.name}-consumer`,
    version: '1.0.0',
    private: true,
  };
  await writeFile(join(dir, 'package.json'), JSON.stringify(application));
  const install = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
  // Exact versions: npm may not move the application's copies to suit the package's ranges.
  await run('npm', [...install, '--save-exact', ...consumer.install], dir);
  await run('npm', [...install, tarball], dir);
  await copyFile(APPLICATION, join(dir, 'application.cjs'));
}

/** Where npm installed each of `names`, one line per copy, and which version is there. */
async function copies(dir: string, names: string[]): Promise<Record<string, string[]>> {
  const args = ['ls', '--all', '--parseable', '--long', ...names];
  const found: Record<string, string[]> = {};
  for (const line of (await run('npm', args, dir)).trim().split('\n')) {
    const match = /^(.+?):((?:@[^/]+\/)?[^@:]+)@([^:]+)/.exec(line);
    if (match === null || match[1] === dir) continue;
    (found[match[2]] ??= []).push(`${match[3]} ${match[1].slice(dir.length + 1)}`);
  }
  return found;
}

interface Report {
  body: string;
  metrics: string[];
  spans: { name: string; traceId: string; id: string; parent?: string }[];
}

describe('the application with the lowest versions', () => {
  it('holds the first version of every range the package declares', () => {
    const declared = Object.fromEntries(
      [...SHARED, '@ioredis/commands'].map((name) => [name, lowest(RANGES[name])]),
    );
    expect(LOWEST).toEqual(declared);
  });
});

describeWhen(
  registryAnswers(),
  'package-coexistence.spec: skipped, the npm registry did not answer `npm ping`',
)(
  'the packed @redisx/tracing beside the OpenTelemetry SDK and prom-client of the application',
  () => {
    let work: string;
    const dirOf = (consumer: Consumer) => join(work, consumer.name);

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'redisx-tracing-coexistence-'));
      const args = ['tools/pack.mjs', '--destination', work, '@redisx/tracing'];
      const tarball = (await run('node', args, REPO)).trim();
      await Promise.all(
        CONSUMERS.map((consumer) => createConsumer(dirOf(consumer), consumer, tarball)),
      );
    }, 240_000);

    afterAll(() => rm(work, { recursive: true, force: true }));

    it.each(CONSUMERS)(
      '$name: one copy of each shared package, the one the application installed',
      async (consumer) => {
        const dir = dirOf(consumer);
        const found = await copies(dir, [...SHARED, '@ioredis/commands']);
        const path = (name: string) => `node_modules/${name}`;
        for (const name of SHARED) {
          expect({ name, copies: found[name] }).toEqual({
            name,
            copies: [expect.stringMatching(new RegExp(` ${path(name)}$`))],
          });
        }
        expect(found['@ioredis/commands']).toHaveLength(1);
        expect(existsSync(join(dir, 'node_modules/@redisx/tracing/node_modules'))).toBe(false);
        if (consumer.name === 'lowest') {
          const installed = (name: string) => `${name}@${found[name][0].split(' ')[0]}`;
          expect(Object.keys(LOWEST).map(installed)).toEqual(
            Object.entries(LOWEST).map(([name, version]) => `${name}@${version}`),
          );
        }
      },
    );

    it.each(
      CONSUMERS.flatMap((consumer) => [consumer.sdk, 'none'].map((sdk) => ({ ...consumer, sdk }))),
    )(
      '$name, provider from $sdk: HTTP, custom and Redis spans nest, metrics and an exemplar are served',
      async (consumer) => {
        const redis = await provideRedis();
        const key = `redisx-tracing-coexistence:${Math.random().toString(36).slice(2)}`;
        try {
          const env = {
            SDK: consumer.sdk,
            REDIS_URL: redis.url,
            KEY: key,
            OTEL_LOGS_EXPORTER: 'none',
            OTEL_METRICS_EXPORTER: 'none',
          };
          const output = await run('node', ['application.cjs'], dirOf(consumer), env);
          const report = JSON.parse(output) as Report;
          expect(report.body).toBe('v');
          const byName = (name: string) => report.spans.find((span) => span.name === name);
          const http = byName('GET /shop');
          const load = byName('shop.load');
          expect(http).toBeDefined();
          expect(load?.parent).toBe(http?.id);
          for (const name of ['redis.SET', 'redis.INCR', 'redis.GET']) {
            expect({ name, parent: byName(name)?.parent }).toEqual({ name, parent: load?.id });
          }
          expect(report.metrics).toEqual(
            expect.arrayContaining([
              'pkg_redis_commands_total{command="SET",client="shop",status="success"} 1',
              'pkg_redis_commands_total{command="INCR",client="shop",status="error"} 1',
              'pkg_redis_commands_total{command="GET",client="shop",status="success"} 1',
              'pkg_redis_errors_total{command="INCR",client="shop",error_type="ERR"} 1',
            ]),
          );
          // The failed INCR leaves its span as the exemplar of its duration bucket (a command that
          // happens to be slower than 50 ms on a busy machine may leave one too: not checked).
          const exemplars = report.metrics.filter(
            (line) => line.includes('command="INCR"') && line.includes(' # {'),
          );
          expect(exemplars).toEqual([
            expect.stringMatching(
              new RegExp(
                `^pkg_redis_command_duration_seconds_bucket\\{le="[^"]+",command="INCR",client="shop"\\} 1 # \\{trace_id="${load?.traceId}",span_id="${byName('redis.INCR')?.id}"\\} `,
              ),
            ),
          ]);
        } finally {
          await redis.stop();
        }
      },
    );
  },
);
