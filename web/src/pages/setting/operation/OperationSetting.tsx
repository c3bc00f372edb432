import { LogSettingsCard } from './LogSettingsCard';

/** The operation tab (super admin): one card per area of the spec's operation settings. */
export function OperationSetting() {
  return (
    <>
      <LogSettingsCard />
    </>
  );
}
