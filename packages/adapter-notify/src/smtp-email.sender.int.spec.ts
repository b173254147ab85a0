import { expect } from 'chai';
import sinon from 'sinon';
import { SmtpEmailSender } from './smtp-email.sender.js';
import { LocalSmtpServer, SilentTcpServer } from './testing/local-smtp.server.js';

describe('SmtpEmailSender', () => {
  describe('when the server accepts the message', () => {
    let smtp: LocalSmtpServer;
    beforeEach(async () => (smtp = await LocalSmtpServer.start({ login: { user: 'mailer', pass: 'p@ss word' } })));
    afterEach(() => smtp.stop());

    it('logs in with the URL credentials and delivers from SMTP_FROM to every recipient', async () => {
      const sender = new SmtpEmailSender({ url: smtp.url, from: 'CMS <cms@acme.test>', timeoutMs: 2000 });
      await sender.send({ to: ['ops@acme.test', 'boss@acme.test'], subject: 'New submission: Contact us', text: 'Submission: 123\nname: Ada\n' });
      expect(smtp.received).to.have.length(1);
      const [mail] = smtp.received;
      expect(mail?.user).to.equal('mailer');
      expect(mail?.mailFrom).to.equal('cms@acme.test');
      expect(mail?.rcptTo).to.deep.equal(['ops@acme.test', 'boss@acme.test']);
      expect(mail?.headers['subject']).to.equal('New submission: Contact us');
      expect(mail?.headers['from']).to.equal('CMS <cms@acme.test>');
      expect(mail?.headers['to']).to.equal('ops@acme.test, boss@acme.test');
      expect(mail?.headers['auto-submitted']).to.equal('auto-generated');
      expect(mail?.text).to.equal('Submission: 123\nname: Ada\n');
    });

    it('keeps non-ASCII text intact', async () => {
      const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
      await sender.send({ to: ['ops@acme.test'], subject: 'Nouvelle réponse', text: 'Prénom: Zoë — ٱلْعَرَبِيَّة\n' });
      expect(smtp.received[0]?.text).to.equal('Prénom: Zoë — ٱلْعَرَبِيَّة\n');
      expect(smtp.received[0]?.headers['subject']).to.match(/^=\?UTF-8\?/);
    });
  });

  describe('when the login is wrong', () => {
    it('rejects with the server’s answer and without the password', async () => {
      const smtp = await LocalSmtpServer.start({ login: { user: 'mailer', pass: 'right' } });
      try {
        const sender = new SmtpEmailSender({ url: `smtp://mailer:wrong-secret@127.0.0.1:${smtp.port}`, from: 'cms@acme.test', timeoutMs: 2000 });
        const error = await sender.send({ to: ['ops@acme.test'], subject: 's', text: 't' }).then(() => null, (e: Error) => e);
        expect(error?.message).to.match(/^SMTP send failed: .*535/);
        expect(error?.message).not.to.contain('wrong-secret');
        expect(smtp.received).to.have.length(0);
      } finally {
        await smtp.stop();
      }
    });
  });

  describe('when the server refuses the recipient', () => {
    it('rejects with the 550 answer', async () => {
      const smtp = await LocalSmtpServer.start({ refuse: ['ghost@acme.test'] });
      try {
        const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
        const error = await sender.send({ to: ['ghost@acme.test'], subject: 's', text: 't' }).then(() => null, (e: Error) => e);
        expect(error?.message).to.match(/^SMTP send failed: .*550/);
      } finally {
        await smtp.stop();
      }
    });
  });

  describe('when the server takes the message for one recipient and refuses it for the others', () => {
    it('resolves with each refused recipient as the message named it, and whether a later attempt may pass', async () => {
      const smtp = await LocalSmtpServer.start({ refuse: ['ghost@acme.test'], defer: { 'late@acme.test': 1 } });
      try {
        const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
        const result = await sender.send({ to: ['boss@acme.test', 'ghost@acme.test', 'late@acme.test'], subject: 's', text: 't' });
        expect(result.refused?.map(({ address, transient }) => ({ address, transient }))).to.deep.equal([
          { address: 'ghost@acme.test', transient: false },
          { address: 'late@acme.test', transient: true },
        ]);
        expect(result.refused?.map((r) => r.reply)).to.satisfy((replies: string[]) => replies[0]!.startsWith('550') && replies[1]!.startsWith('451'));
        expect(smtp.received.map((m) => m.rcptTo)).to.deep.equal([['boss@acme.test']]);
      } finally {
        await smtp.stop();
      }
    });

    it('counts every 4xx reply as worth another attempt and every 5xx reply, 500 included, as final', async () => {
      const codes = [400, 450, 452, 499, 500, 501, 550, 554];
      const smtp = await LocalSmtpServer.start({ refuseWith: Object.fromEntries(codes.map((code) => [`r${code}@acme.test`, code])) });
      try {
        const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
        const result = await sender.send({ to: ['boss@acme.test', ...codes.map((code) => `r${code}@acme.test`)], subject: 's', text: 't' });
        expect(result.refused?.map(({ address, transient, reply }) => ({ address, transient, code: reply.slice(0, 3) }))).to.deep.equal([
          { address: 'r400@acme.test', transient: true, code: '400' },
          { address: 'r450@acme.test', transient: true, code: '450' },
          { address: 'r452@acme.test', transient: true, code: '452' },
          { address: 'r499@acme.test', transient: true, code: '499' },
          { address: 'r500@acme.test', transient: false, code: '500' },
          { address: 'r501@acme.test', transient: false, code: '501' },
          { address: 'r550@acme.test', transient: false, code: '550' },
          { address: 'r554@acme.test', transient: false, code: '554' },
        ]);
      } finally {
        await smtp.stop();
      }
    });

    it('names a refused recipient whose domain is internationalised as the message gave it, not in the punycode sent', async () => {
      // nodemailer sends `ops@xn--bcher-kva.test`; the server reads it back as `ops@bücher.test`.
      const smtp = await LocalSmtpServer.start({ refuse: ['ops@bücher.test'], defer: { 'late@bücher.test': 1 } });
      try {
        const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
        const result = await sender.send({ to: ['boss@acme.test', 'ops@bücher.test', 'late@BÜCHER.test'], subject: 's', text: 't' });
        expect(result.refused?.map(({ address, transient }) => ({ address, transient }))).to.deep.equal([
          { address: 'ops@bücher.test', transient: false },
          { address: 'late@BÜCHER.test', transient: true },
        ]);
      } finally {
        await smtp.stop();
      }
    });

    it('names a refused recipient as the message gave it when its domain, in capitals, is no valid internationalised name', async () => {
      // `XN--ZZ` is no punycode: the domain cannot be converted, nodemailer sends it lower-cased, the
      // server refuses the address it cannot read (501).
      const smtp = await LocalSmtpServer.start();
      try {
        const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
        const result = await sender.send({ to: ['boss@acme.test', 'ops@XN--ZZ.test'], subject: 's', text: 't' });
        expect(result.refused?.map(({ address, transient }) => ({ address, transient }))).to.deep.equal([{ address: 'ops@XN--ZZ.test', transient: false }]);
      } finally {
        await smtp.stop();
      }
    });

    it('resolves with nothing refused when the server takes every recipient', async () => {
      const smtp = await LocalSmtpServer.start();
      try {
        const sender = new SmtpEmailSender({ url: smtp.url, from: 'cms@acme.test', timeoutMs: 2000 });
        expect(await sender.send({ to: ['boss@acme.test', 'ops@acme.test'], subject: 's', text: 't' })).to.deep.equal({ refused: [] });
      } finally {
        await smtp.stop();
      }
    });
  });

  describe('when the server never speaks', () => {
    it('gives up near the timeout', async () => {
      const silent = await SilentTcpServer.start();
      try {
        const sender = new SmtpEmailSender({ url: `smtp://127.0.0.1:${silent.port}`, from: 'cms@acme.test', timeoutMs: 300 });
        const started = performance.now();
        const error = await sender.send({ to: ['ops@acme.test'], subject: 's', text: 't' }).then(() => null, (e: Error) => e);
        expect(performance.now() - started).to.be.within(280, 2000);
        expect(error?.message).to.equal('SMTP server gave no answer within 300 ms');
        expect(silent.connections).to.equal(1);
      } finally {
        await silent.stop();
      }
    });
  });

  describe('when nodemailer’s own timer gives up before the send’s deadline', () => {
    it('says the server gave no answer within the timeout, not that the send failed', async () => {
      // nodemailer's connection and greeting timers run on the same budget as the send's abort
      // signal and may fire first. Here they fire at once: only setTimeout is faked, the signal's
      // timer stays real and a minute away.
      const silent = await SilentTcpServer.start();
      const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const sender = new SmtpEmailSender({ url: `smtp://127.0.0.1:${silent.port}`, from: 'cms@acme.test', timeoutMs: 60_000 });
        const outcome = sender.send({ to: ['ops@acme.test'], subject: 's', text: 't' }).then(() => null, (e: Error) => e);
        await silent.connected();
        expect(clock.countTimers(), 'nodemailer times the connection with setTimeout').to.be.at.least(1);
        await clock.tickAsync(60_000);
        expect((await outcome)?.message).to.equal('SMTP server gave no answer within 60000 ms');
      } finally {
        clock.restore();
        await silent.stop();
      }
    });
  });

  describe('when nothing listens', () => {
    it('rejects', async () => {
      const silent = await SilentTcpServer.start();
      const port = silent.port;
      await silent.stop();
      const sender = new SmtpEmailSender({ url: `smtp://127.0.0.1:${port}`, from: 'cms@acme.test', timeoutMs: 2000 });
      const error = await sender.send({ to: ['ops@acme.test'], subject: 's', text: 't' }).then(() => null, (e: Error) => e);
      expect(error?.message).to.match(/^SMTP send failed: .*ECONNREFUSED/);
    });
  });
});
