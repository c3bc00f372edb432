import { ChatSettingsCard } from './ChatSettingsCard';
import { DataExportSettingsCard } from './DataExportSettingsCard';
import { DrawingSettingsCard } from './DrawingSettingsCard';
import { GeneralOperationCard } from './GeneralOperationCard';
import { LogSettingsCard } from './LogSettingsCard';
import { MonitoringSettingsCard } from './MonitoringSettingsCard';
import { QuotaSettingsCard } from './QuotaSettingsCard';
import { RatioSettingsCard } from './RatioSettingsCard';
import { SensitiveWordsCard } from './SensitiveWordsCard';

/** The operation tab (super admin): one card per area, in the spec's order. */
export function OperationSetting() {
  return (
    <>
      <GeneralOperationCard />
      <DrawingSettingsCard />
      <SensitiveWordsCard />
      <LogSettingsCard />
      <DataExportSettingsCard />
      <MonitoringSettingsCard />
      <QuotaSettingsCard />
      <ChatSettingsCard />
      <RatioSettingsCard />
    </>
  );
}
