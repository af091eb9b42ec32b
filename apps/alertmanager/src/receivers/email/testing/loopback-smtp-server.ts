import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A real SMTP server on loopback, for the specs: where it listens, and how to stop it. */
export interface LoopbackSmtpServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Starts `smtp-server` with `options` on a free loopback port; each mail's data is read and dropped. */
export async function loopbackSmtpServer(options: SMTPServerOptions): Promise<LoopbackSmtpServer> {
  const server = new SMTPServer({
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on('end', () => callback());
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
