import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused upload may go on being discarded after the answer, as Go's 500 ms and more. */
const LINGER_MS = 2000;

/**
 * Closes the connection of a request whose body is refused unread the way Go's server does:
 * once the answer is written, the server's side is shut (FIN) while what the client still sends
 * is read and dropped, for up to two seconds, before the socket goes. Closing at once would
 * leave unread bytes in the kernel, which then resets the connection, and a client still
 * uploading would see `EPIPE` or `ECONNRESET` instead of the 413 it was sent.
 */
export function lingerAfterRefusal(req: IncomingMessage): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  req.resume();
  // Node's server calls destroySoon when a `Connection: close` answer has been written.
  socket.destroySoon = () => {
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}
