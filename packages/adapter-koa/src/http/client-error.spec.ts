import { expect } from 'chai';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientError } from './client-error.js';

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
