import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { SecureContextOptions, TLSSocket } from 'node:tls';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import { BasicAuthenticator } from './basic-auth';
import { clientCertAccepted } from './client-cert-policy';
import { RateLimiter } from './rate-limiter';
import { TlsMaterial } from './tls-material';
import type { TlsServerSetup } from './tls-options';
import { WebConfigLoader } from './web-config-loader';
import type { WebConfig } from './web-config.model';
import { WebRequestGate } from './web-request-gate';

type Listener = (this: unknown, ...args: unknown[]) => void;

// Node reads these two per connection but `setSecureContext` does not update them.
type ClientCertFlags = { requestCert: boolean; rejectUnauthorized: boolean };

/** The options an HTTPS server starts with. */
export type HttpsListenOptions = SecureContextOptions & ClientCertFlags;

/**
 * Enforces a `--web.config.file` on the server, in front of everything else on it: every
 * request (the hot routes as well as Express) first passes the {@link WebRequestGate}, and with
 * TLS every new connection gets the certificate and client policy of the file as it is then,
 * as the toolkit's per-handshake reload does. Whether TLS is on is decided at startup, as
 * upstream: a file that gains TLS later changes nothing, one that loses it refuses connections.
 */
export class WebConfigEnforcer {
  private applied: TlsServerSetup | undefined;
  private lastTlsError: string | undefined;

  private constructor(
    private readonly loader: WebConfigLoader,
    private readonly material: TlsMaterial,
    private readonly gate: WebRequestGate,
    private readonly logger: Logger,
    initial: TlsServerSetup | undefined,
  ) {
    this.applied = initial;
  }

  /**
   * Loads the file for startup and builds its TLS setup; throws with a one-line message when
   * either fails, naming the file.
   */
  static open(file: string, logger: Logger, clock: Clock): WebConfigEnforcer {
    const loader = new WebConfigLoader(file);
    const config: WebConfig = loader.loadAtStartup();
    const material = new TlsMaterial();
    let setup: TlsServerSetup | undefined;
    if (config.tls_server_config) {
      const built = material.current(config.tls_server_config);
      if (built.error) throw new Error(`${file}: ${built.error.message}`);
      setup = built.setup;
    }
    const { burst, interval_ms } = config.rate_limit;
    // As upstream, `rate_limit` is read once, at startup.
    const limiter = interval_ms > 0 ? new RateLimiter(burst, interval_ms, clock) : undefined;
    const gate = new WebRequestGate(loader, new BasicAuthenticator(), limiter, logger);
    return new WebConfigEnforcer(loader, material, gate, logger, setup);
  }

  /** Options for `https.createServer`, or undefined to serve plain HTTP. */
  get httpsOptions(): HttpsListenOptions | undefined {
    const setup = this.applied;
    if (!setup) return undefined;
    const { requestCert, rejectUnauthorized } = setup;
    return { ...setup.context, requestCert, rejectUnauthorized };
  }

  /**
   * Puts the gate in front of the server's request listeners (and of `checkContinue`, so that a
   * refused client is not invited to send its body), and with TLS, the config's reload in
   * front of its connection listeners.
   */
  install(server: HttpServer | HttpsServer): void {
    const requests = this.takeListeners(server, 'request');
    const pass = (req: IncomingMessage, res: ServerResponse) => {
      for (const listener of requests) listener.call(server, req, res);
    };
    server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      this.gate.handle(req, res, () => pass(req, res)),
    );
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) =>
      this.gate.handle(req, res, () => {
        res.writeContinue();
        pass(req, res);
      }),
    );
    if (!this.applied) return;
    const tlsServer = server as HttpsServer;
    const connections = this.takeListeners(server, 'connection');
    server.on('connection', (socket: Socket) => {
      if (!this.refreshTls(tlsServer)) {
        socket.destroy();
        return;
      }
      for (const listener of connections) listener.call(server, socket);
    });
    const secured = this.takeListeners(server, 'secureConnection');
    server.on('secureConnection', (socket: TLSSocket) => {
      if (this.applied && !clientCertAccepted(socket, this.applied)) {
        this.logger.debug('TLS client certificate refused', { remote: socket.remoteAddress });
        socket.destroy();
        return;
      }
      for (const listener of secured) listener.call(server, socket);
    });
  }

  /** Applies the file's current TLS setup to the server; false when there is none to apply. */
  private refreshTls(server: HttpsServer): boolean {
    const { config, error } = this.loader.current();
    const built = config?.tls_server_config
      ? this.material.current(config.tls_server_config)
      : { error: error ?? new Error('TLS config is not present') };
    if (built.error) {
      if (built.error.message !== this.lastTlsError) {
        this.lastTlsError = built.error.message;
        this.logger.error('TLS handshake refused', { err: built.error.message });
      }
      return false;
    }
    this.lastTlsError = undefined;
    if (built.setup !== this.applied) {
      server.setSecureContext(built.setup.context);
      const flags = server as unknown as ClientCertFlags;
      flags.requestCert = built.setup.requestCert;
      flags.rejectUnauthorized = built.setup.rejectUnauthorized;
      this.applied = built.setup;
      this.logger.info('TLS configuration reloaded');
    }
    return true;
  }

  private takeListeners(server: HttpServer | HttpsServer, event: string): Listener[] {
    const listeners = server.listeners(event) as Listener[];
    server.removeAllListeners(event);
    return listeners;
  }
}
