import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/*
 * A real SMTP server for tests (smtp-server): it speaks the protocol, checks the login when given one, and keeps
 * every mail it accepts, parsed, so a test reads the code or link a user would read. Used by the server suites and
 * the browser tests.
 */

export interface ReceivedMail {
  /** The envelope sender. */
  from: string;
  /** The From header as written. */
  fromHeader: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
}

export interface SmtpStandInOptions {
  /** Require this login (AUTH PLAIN / LOGIN). */
  auth?: { user: string; pass: string };
  /** Refuse every recipient (a server that does not take the mail). */
  refuseRecipients?: boolean;
}

export interface SmtpStandIn {
  port: number;
  mails: ReceivedMail[];
  /** The next mail to `to` not read yet (waits for it). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The options that point the gateway here. */
  settings(): Record<string, string>;
  close(): Promise<void>;
}

export async function startSmtpStandIn(opts: SmtpStandInOptions = {}): Promise<SmtpStandIn> {
  const mails: ReceivedMail[] = [];
  const read = new Set<ReceivedMail>();
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (opts.refuseRecipients) callback(new Error(`550 mailbox ${address.address} unavailable`));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            fromHeader: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            text: parsed.text ?? '',
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  const unread = (to: string) => mails.find((m) => !read.has(m) && m.to.includes(to));
  return {
    port,
    mails,
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = unread(to);
        if (mail) {
          read.add(mail);
          return mail;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    settings() {
      return {
        SMTPServer: '127.0.0.1',
        SMTPPort: String(port),
        SMTPSSLEnabled: 'false',
        SMTPAccount: opts.auth?.user ?? '',
        SMTPToken: opts.auth?.pass ?? '',
        SMTPFrom: 'noreply@switchyard.test',
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code in a verification mail. */
export const codeIn = (mail: ReceivedMail): string => /验证码为: (\d{6})/.exec(mail.text)?.[1] ?? '';

/** The reset link in a password-reset mail. */
export const resetLinkIn = (mail: ReceivedMail): string => /https?:\/\/\S+\/user\/reset\?\S+/.exec(mail.text)?.[0] ?? '';
