import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP relay between one replica and Redis that a spec can cut, as `kill -9` cuts a process
 * off: both ends of every connection are destroyed at once, so whatever the replica wrote that
 * the relay has not passed on yet never reaches Redis, and no new connection is accepted.
 */
export class RedisCable {
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((client) => this.relay(client));
  /** The URL the replica connects to instead of Redis's; set by {@link open}. */
  url = '';

  private constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Starts relaying connections from a free loopback port to `host:port`. */
  static async open(host: string, port: number): Promise<RedisCable> {
    const cable = new RedisCable(host, port);
    await new Promise<void>((resolve) => cable.server.listen(0, '127.0.0.1', resolve));
    cable.url = `redis://127.0.0.1:${(cable.server.address() as AddressInfo).port}`;
    return cable;
  }

  /** Destroys every connection now, without passing on what is still unread. */
  cut(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private relay(client: Socket): void {
    const upstream = createConnection({ host: this.host, port: this.port });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
