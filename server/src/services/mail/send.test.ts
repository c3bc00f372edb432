import { describe, expect, it } from 'vitest';
import { OPTION_DEFAULTS, type OptionKey, type OptionReader } from '../../options/index.js';
import { smtpSettings } from './send.js';

const reader = (values: Partial<Record<OptionKey, unknown>>): OptionReader =>
  ({ get: (key: OptionKey) => (key in values ? values[key] : OPTION_DEFAULTS[key]) }) as OptionReader;

describe('SMTP settings from the options', () => {
  it('needs a server and a sender', () => {
    expect(smtpSettings(reader({}))).toBeNull();
    expect(smtpSettings(reader({ SMTPServer: 'smtp.example.com' }))).toBeNull();
    expect(smtpSettings(reader({ SMTPServer: ' ', SMTPFrom: 'a@example.com' }))).toBeNull();
  });

  it('uses implicit TLS only when SMTPSSLEnabled (STARTTLS otherwise, when offered), and logs in when an account is set', () => {
    const plain = smtpSettings(reader({ SMTPServer: 'smtp.example.com', SMTPFrom: 'noreply@example.com' }))!;
    expect(plain.from).toBe('noreply@example.com');
    expect(plain.transport).toMatchObject({ host: 'smtp.example.com', port: 587, secure: false, auth: undefined });
    const ssl = smtpSettings(
      reader({ SMTPServer: 'smtp.qq.com', SMTPPort: 465, SMTPSSLEnabled: true, SMTPAccount: 'me@qq.com', SMTPToken: 'app-pass' }),
    )!;
    expect(ssl.from).toBe('me@qq.com');
    expect(ssl.transport).toMatchObject({ port: 465, secure: true, auth: { user: 'me@qq.com', pass: 'app-pass' }, authMethod: undefined });
    // Port 465 speaks TLS from the first byte, switch or not.
    expect(smtpSettings(reader({ SMTPServer: 'smtp.qq.com', SMTPPort: 465, SMTPAccount: 'me@qq.com' }))!.transport.secure).toBe(true);
  });

  it('logs in with LOGIN at Outlook and Azure Communication Services', () => {
    for (const [server, account] of [
      ['smtp-mail.outlook.com', 'me@outlook.com'],
      ['smtp.office365.com', 'me@company.com'],
      ['smtp.azurecomm.net', 'resource.app.tenant'],
    ]) {
      expect(smtpSettings(reader({ SMTPServer: server, SMTPAccount: account }))!.transport.authMethod, server).toBe('LOGIN');
    }
  });
});
