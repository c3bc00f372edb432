import { ChatSettingsCard } from './ChatSettingsCard';
import { DataExportSettingsCard } from './DataExportSettingsCard';
import { DrawingSettingsCard } from './DrawingSettingsCard';
import { GeneralOperationCard } from './GeneralOperationCard';
import { LogSettingsCard } from './LogSettingsCard';
import { MonitoringSettingsCard } from './MonitoringSettingsCard';
import { QuotaSettingsCard } from './QuotaSettingsCard';
import { RateLimitSettingsCard } from './RateLimitSettingsCard';
import { RatioSettingsCard } from './RatioSettingsCard';
import { SensitiveWordsCard } from './SensitiveWordsCard';

/** The operation tab (super admin): one card per area, in the spec's order (the rate-limit card after monitoring). */
export function OperationSetting() {
  return (
    <>
      <GeneralOperationCard />
      <DrawingSettingsCard />
      <SensitiveWordsCard />
      <LogSettingsCard />
      <DataExportSettingsCard />
      <MonitoringSettingsCard />
      <RateLimitSettingsCard />
      <QuotaSettingsCard />
      <ChatSettingsCard />
      <RatioSettingsCard />
    </>
  );
}
