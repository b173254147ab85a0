/**
 * `CONNECT` asks a server to open a tunnel, which this service never does. Node's HTTP server does
 * not serve such a request: it hands the request and its bare socket to the server's `connect`
 * listeners and, with none, destroys the socket without a word (decision 0828). This listener
 * answers it as a request of any other method that no route serves, with its request id, common
 * headers, log line and count: a path goes through the app, which answers 404 `Route not found`
 * or 405 with the path's `Allow`; an authority (`example.com:443`, CONNECT's usual target) has no
 * path to route and is answered 404 by `unroutable`, the app's front layers and that refusal.
 * Node's parser has let go of the connection, so it closes after the answer (`Connection:
 * close`, then the end of the socket, lingering as any early answer's when the request declared
 * a body).
 */
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** The server's `connect` listener. */
export type ConnectListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Answers a path's `CONNECT` through `handle` (the app's request listener), any other target's through `unroutable`. */
export function connectAnswerer(handle: RequestListener, unroutable: RequestListener): ConnectListener {
  return (req, duplex) => {
    // Node hands a `connect` listener the connection's own `net.Socket`.
    const socket = duplex as Socket;
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once('finish', () => {
      res.detachSocket(socket);
      // `destroySoon` ends the socket once what is written is out (or lingers, when the early
      // answer set that up); the server no longer does it for a connection its parser let go of.
      socket.destroySoon();
    });
    socket.once('error', () => socket.destroy());
    if (req.url?.startsWith('/')) handle(req, res);
    else unroutable(req, res);
  };
}
