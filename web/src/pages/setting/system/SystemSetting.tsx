import { EmailDomainCard } from './EmailDomainCard';
import { GeneralSystemCard } from './GeneralSystemCard';
import { LoginSettingsCard } from './LoginSettingsCard';
import { PaymentSettingsCard } from './PaymentSettingsCard';
import { GitHubOAuthCard, TelegramBotCard, TurnstileCard, WeChatServerCard } from './SignInProviderCards';
import { SmtpSettingsCard } from './SmtpSettingsCard';
import { WorkerSettingsCard } from './WorkerSettingsCard';

/** The system tab (super admin): one card per area, in the spec's order. */
export function SystemSetting() {
  return (
    <>
      <GeneralSystemCard />
      <WorkerSettingsCard />
      <PaymentSettingsCard />
      <LoginSettingsCard />
      <EmailDomainCard />
      <SmtpSettingsCard />
      <GitHubOAuthCard />
      <WeChatServerCard />
      <TelegramBotCard />
      <TurnstileCard />
    </>
  );
}
