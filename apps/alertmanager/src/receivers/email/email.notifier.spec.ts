import { parseConfig } from '../../config';
import { defaultTemplates } from '../../template';
import { caseAlerts, caseContext } from '../testing/integration-case';
import { EmailNotifier } from './email.notifier';
import { loopbackSmtpServer } from './testing/loopback-smtp-server';

/** What a real SMTP server on loopback received: the MAIL FROM parameters of each mail. */
interface Received {
  port: number;
  mailFrom: { address: string; args: unknown }[];
  close(): Promise<void>;
}

async function smtpServer(options: { hide8BITMIME: boolean }): Promise<Received> {
  const mailFrom: Received['mailFrom'] = [];
  const server = await loopbackSmtpServer({
    hide8BITMIME: options.hide8BITMIME,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    onMailFrom: (address, _session, callback) => {
      mailFrom.push({ address: address.address, args: address.args });
      callback();
    },
  });
  return { ...server, mailFrom };
}

function notifier(port: number): EmailNotifier {
  const config = parseConfig(
    `route: {receiver: team}
receivers:
  - name: team
    email_configs:
      - {to: ops@example.org, from: am@example.org, smarthost: '127.0.0.1:${port}', require_tls: false}
`,
    'am.yml',
  );
  return new EmailNotifier(
    config.receivers[0].email_configs[0],
    defaultTemplates(),
    'http://am.example:9093',
  );
}

/**
 * MAIL FROM as Go's SMTP client writes it for upstream: `BODY=8BITMIME` when the server's EHLO
 * reply offers 8BITMIME, no parameter otherwise.
 */
describe('email MAIL FROM', () => {
  it.each([
    ['offers 8BITMIME', false, { BODY: '8BITMIME' }],
    ['does not offer 8BITMIME', true, false],
  ])('when the server %s', async (_name, hide8BITMIME, args) => {
    const server = await smtpServer({ hide8BITMIME });
    try {
      await notifier(server.port).notify(caseContext(), caseAlerts(false));
      expect(server.mailFrom).toEqual([{ address: 'am@example.org', args }]);
    } finally {
      await server.close();
    }
  });
});
