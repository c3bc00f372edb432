import { DataExportSettingsCard } from './DataExportSettingsCard';
import { LogSettingsCard } from './LogSettingsCard';
import { QuotaSettingsCard } from './QuotaSettingsCard';

/** The operation tab (super admin): one card per area of the spec's operation settings. */
export function OperationSetting() {
  return (
    <>
      <LogSettingsCard />
      <DataExportSettingsCard />
      <QuotaSettingsCard />
    </>
  );
}
