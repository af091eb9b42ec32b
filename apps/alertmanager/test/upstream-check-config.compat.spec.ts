import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeWhen, runProcess } from '@redisx/testing';
import { installedCommand } from './support/installed-command';

/**
 * Compares our verdicts with upstream's `amtool check-config` (Debian's prometheus-alertmanager
 * 0.25) where it is installed. Our own tests of every case stand without it; this one guards
 * against drifting from what upstream accepts and refuses.
 */
const amtool = installedCommand('amtool');
const describeWithUpstream = describeWhen(
  !!amtool,
  'upstream comparison skipped: amtool is not installed (apt-get install prometheus-alertmanager)',
);

const appDir = join(__dirname, '..');
const fixturesDir = join(appDir, 'src', 'config', 'testdata');

/**
 * Fixtures that upstream 0.25 accepts on purpose: checks added by later upstream releases, and
 * the places where we are deliberately stricter (a month of 13 never matches; an SNS role this
 * server cannot assume must not load silently).
 */
const acceptedByUpstream025 = new Set([
  'email-auth-password-and-file.yml',
  'http-tls-cert-without-key.yml',
  'month-out-of-range.yml',
  'sns-role-arn.yml',
]);

describeWithUpstream('check-config agrees with upstream amtool', () => {
  const fixtures = readdirSync(fixturesDir).filter(
    (f) => f.endsWith('.yml') && !acceptedByUpstream025.has(f),
  );

  it.each(fixtures)('upstream also refuses %s', async (file) => {
    const result = await runProcess(amtool, ['check-config', join(fixturesDir, file)]);
    // Upstream 0.25 refuses with FAILED, or for a null webhook item crashes: either way, no SUCCESS.
    expect(result.stdout).not.toContain('SUCCESS');
    expect(result.code).not.toBe(0);
  });

  it.each([...acceptedByUpstream025])(
    'upstream 0.25 accepts %s (a known difference)',
    async (file) => {
      const result = await runProcess(amtool, ['check-config', join(fixturesDir, file)]);
      expect(result.stdout).toContain('SUCCESS');
    },
  );

  it('upstream accepts the quick-start example, which uses only its vocabulary', async () => {
    const result = await runProcess(amtool, [
      'check-config',
      join(appDir, 'config', 'quickstart.yml'),
    ]);
    expect(result.code).toBe(0);
  });
});
