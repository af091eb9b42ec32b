import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config';
import { WebConfigLoader } from './web-config-loader';

const HASH = '$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi';

/** A loader over an in-memory file whose signature the test moves by hand. */
function memoryLoader(initial: string) {
  const disk = { text: initial, version: 1, reads: 0 };
  const loader = new WebConfigLoader(
    'web.yml',
    () => `v${disk.version}`,
    () => {
      disk.reads++;
      return disk.text;
    },
  );
  const write = (text: string) => {
    disk.text = text;
    disk.version++;
  };
  return { loader, disk, write };
}

describe('web config loader', () => {
  it('parses the file once while its signature stays the same', () => {
    const { loader, disk } = memoryLoader(`basic_auth_users:\n  alice: ${HASH}\n`);
    const first = loader.current().config;
    expect(first?.basic_auth_users.has('alice')).toBe(true);
    expect(loader.current().config).toBe(first);
    expect(loader.current().config).toBe(first);
    expect(disk.reads).toBe(1);
  });

  it('picks up a change at the next call', () => {
    const { loader, write } = memoryLoader(`basic_auth_users:\n  alice: ${HASH}\n`);
    loader.current();
    write(`basic_auth_users:\n  bob: ${HASH}\n`);
    expect([...(loader.current().config?.basic_auth_users.keys() ?? [])]).toEqual(['bob']);
  });

  it('keeps failing with the same error until a broken file changes', () => {
    const { loader, disk, write } = memoryLoader('http_server_config: {}\n');
    write('http_server_config:\n  http3: true\n');
    const { error } = loader.current();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toBe('web.yml:2: http_server_config.http3: field http3 not found');
    expect(loader.current().error).toBe(error);
    expect(disk.reads).toBe(1);
    write('http_server_config:\n  http2: false\n');
    expect(loader.current().config?.http_server_config.http2).toBe(false);
  });

  it('checks password hashes at startup only, as the toolkit', () => {
    const { loader } = memoryLoader('basic_auth_users:\n  john: doe\n');
    expect(() => loader.loadAtStartup()).toThrow(
      'web.yml:2: basic_auth_users.john: crypto/bcrypt: hashedSecret too short to be a bcrypted password',
    );
    expect(loader.current().config?.basic_auth_users.has('john')).toBe(true);
  });

  describe('on disk', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'web-config-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('names a missing file in its error', () => {
      const file = join(dir, 'missing.yml');
      expect(() => new WebConfigLoader(file).loadAtStartup()).toThrow(
        `${file}: no such file or directory`,
      );
      expect(new WebConfigLoader(file).current().error?.message).toBe(
        `${file}: no such file or directory`,
      );
    });

    it('sees a file rewritten in place', async () => {
      const file = join(dir, 'web.yml');
      await writeFile(file, `basic_auth_users:\n  alice: ${HASH}\n`);
      const loader = new WebConfigLoader(file);
      expect(loader.loadAtStartup().basic_auth_users.has('alice')).toBe(true);
      await writeFile(file, `basic_auth_users:\n  alice: ${HASH}\n  bob: ${HASH}\n`);
      expect(loader.current().config?.basic_auth_users.has('bob')).toBe(true);
    });
  });
});
