import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server (smtp-server) on loopback: it checks a login, records parsed mail, and can fail. */

export type SmtpMode = 'ok' | 'transient' | 'permanent' | 'hang';

export interface SmtpReceiver {
  port: number;
  mails: ParsedMail[];
  logins: { username: string; password: string }[];
  mode(mode: SmtpMode): void;
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  let mode: SmtpMode = 'ok';
  const mails: ParsedMail[] = [];
  const logins: { username: string; password: string }[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      const current = mode;
      if (current === 'hang') {
        stream.resume();
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          if (current === 'transient') return callback(smtpError('Try again later', 451));
          if (current === 'permanent') return callback(smtpError('Mailbox unavailable', 550));
          mails.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // Senders cut off by a time-out drop the connection mid-command: expected, not a failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    logins,
    mode(next) {
      mode = next;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        for (const connection of (server as unknown as { connections: Set<{ close(): void }> }).connections ??
          []) {
          connection.close();
        }
      });
    },
  };
}
