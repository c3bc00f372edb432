import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { OptionReader } from '../../options/index.js';
import { fail } from '../../lib/errors.js';

/** One mail: the HTML body and its plain-text twin. */
export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export const MAIL_MSG = {
  notConfigured: 'SMTP 服务器未配置，请联系管理员',
  failed: '邮件发送失败，请稍后重试或联系管理员检查 SMTP 配置',
} as const;

/** Waits on an SMTP server, so a dead one fails the request in seconds instead of holding it for minutes. */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/** Outlook and Azure Communication Services take only LOGIN, though they may advertise PLAIN too. */
function authMethod(server: string, account: string): string | undefined {
  const host = server.toLowerCase();
  if (host.endsWith('smtp.azurecomm.net') || /@(outlook|hotmail|live)\./i.test(account) || host.includes('office365') || host.includes('outlook')) {
    return 'LOGIN';
  }
  return undefined;
}

/** Implicit TLS is spoken on this port whatever the switch says, as the established gateway does. */
const IMPLICIT_TLS_PORT = 465;

/**
 * The SMTP settings as options say now: implicit TLS when SMTPSSLEnabled or on port 465, otherwise plain with
 * STARTTLS when the server offers it; login when an account is set; From is SMTPFrom, else the account.
 */
export function smtpSettings(options: OptionReader): { transport: SMTPTransport.Options; from: string } | null {
  const host = options.get('SMTPServer').trim();
  const account = options.get('SMTPAccount').trim();
  const from = options.get('SMTPFrom').trim() || account;
  if (!host || !from) return null;
  const token = options.get('SMTPToken');
  const port = options.get('SMTPPort');
  return {
    from,
    transport: {
      host,
      port,
      secure: options.get('SMTPSSLEnabled') || port === IMPLICIT_TLS_PORT,
      auth: account ? { user: account, pass: token } : undefined,
      authMethod: account ? authMethod(host, account) : undefined,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      greetingTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    },
  };
}

export interface MailLog {
  warn(obj: object, msg: string): void;
}

/**
 * Sends one mail over SMTP. Refuses with a Chinese message (never the SMTP server's own words) when SMTP is not
 * configured or the server does not take the mail; the cause goes to the log.
 */
export async function sendMail(options: OptionReader, mail: Mail, log: MailLog): Promise<void> {
  const settings = smtpSettings(options);
  if (!settings) throw fail(MAIL_MSG.notConfigured);
  // Loaded when mail is first sent, not at every start of the server.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(settings.transport);
  try {
    // Shown as "System name <address>" unless SMTPFrom names itself already.
    const from = settings.from.includes('<') ? settings.from : { name: options.get('SystemName'), address: settings.from };
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text });
  } catch (err) {
    log.warn({ err, host: settings.transport.host, port: settings.transport.port }, 'sending mail failed');
    throw fail(MAIL_MSG.failed);
  } finally {
    transport.close();
  }
}
