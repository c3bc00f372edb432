import { GeneralSystemCard } from './GeneralSystemCard';
import { PaymentSettingsCard } from './PaymentSettingsCard';

/** The system tab (super admin): one card per area of the spec's system settings. */
export function SystemSetting() {
  return (
    <>
      <GeneralSystemCard />
      <PaymentSettingsCard />
    </>
  );
}
