import { expect } from 'chai';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientError } from './client-error.js';

/** Sends `head` and then nothing more; what came back once the server closed the connection. */
function sendAndWait(port: number, head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
}

describe('answerClientError', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((_req, res) => res.end('{}'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  describe('when the request head is larger than Node accepts', () => {
    it('answers 431 in the envelope with a request id', async () => {
      const res = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/cms/${'a'.repeat(20_000)}` }, (r) => {
          let body = '';
          r.on('data', (chunk) => (body += chunk));
          r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status).to.equal(431);
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).to.deep.equal({ success: false, statusCode: 431, message: 'Request header fields too large', data: null });
    });
  });

  describe('when the request line is not HTTP', () => {
    it('answers 400 Bad request in the envelope', async () => {
      const raw = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('NOT A REQUEST\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
      });
      expect(raw).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).to.deep.equal({ success: false, statusCode: 400, message: 'Bad request', data: null });
    });
  });
});

describe('answerClientError on a request being served', () => {
  let server: Server;
  let port: number;
  let serve: (req: IncomingMessage, res: ServerResponse) => void;
  before(async () => {
    server = createServer({ headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 }, (req, res) => serve(req, res));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  describe('when the request timeout expires before its answer has started', () => {
    it('answers 408 through its response, with the headers its layers set, and aborts it once the connection closes', async () => {
      let aborted!: () => void;
      const pipelineEnded = new Promise<void>((resolve) => (aborted = resolve));
      serve = (req, res) => {
        res.setHeader('x-request-id', 'served-1');
        res.setHeader('access-control-allow-origin', 'https://app.example.com');
        req.on('data', () => {});
        req.on('aborted', aborted);
      };
      const raw = await sendAndWait(port, 'PUT /cms/x HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":');
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).to.match(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(head).to.match(/^x-request-id: served-1$/im);
      expect(head).to.match(/^access-control-allow-origin: https:\/\/app\.example\.com$/im);
      expect(head).to.match(/^connection: close$/im);
      expect(JSON.parse(body!)).to.deep.equal({ success: false, statusCode: 408, message: 'Request timeout', data: null });
      await pipelineEnded;
    });
  });

  describe('when its body is malformed (not a timeout)', () => {
    it('answers 400 Bad request through its response too', async () => {
      serve = (req, res) => {
        res.setHeader('x-request-id', 'served-2');
        req.on('data', () => {});
      };
      const raw = await sendAndWait(port, 'PUT /cms/x HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n');
      expect(raw).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw).to.match(/^x-request-id: served-2$/im);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).to.deep.equal({ success: false, statusCode: 400, message: 'Bad request', data: null });
    });
  });

  describe('when the request timeout expires after part of its answer is out', () => {
    it('closes the connection without a second answer', async () => {
      serve = (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 10 });
        res.write('01234');
        req.on('data', () => {});
      };
      const raw = await sendAndWait(port, 'PUT /cms/x HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":');
      expect(raw).to.match(/^HTTP\/1\.1 200 OK\r\n/);
      expect(raw).not.to.contain('408');
      expect(raw.endsWith('\r\n\r\n01234')).to.equal(true);
    });
  });
});
