import { recordingLogger } from '../../logging/testing/recording-logger';
import { glob } from '../../template';
import type { FakeScheduler } from '../../time/testing/fake-scheduler';
import type { ScrapePoolDeps } from '../scrape-pool';

/** What a spec's scrape pools run on: targets are looked at, never scraped (the storage takes nothing). */
export function idlePoolDeps(scheduler: FakeScheduler): ScrapePoolDeps {
  return {
    clock: scheduler,
    scheduler,
    logger: recordingLogger([]),
    storage: {
      appender: () => ({
        add: () => undefined,
        addStale: () => undefined,
        commit: () => ({ written: Promise.resolve() }),
      }),
      kept: (l) => l,
    },
    parse: () => [],
    accept: 'text/plain',
    userAgent: 'test',
    glob,
  };
}
