import type { TableImport } from '../table-import.js';
import { channelsImport } from './channels.js';
import { logsImport } from './logs.js';
import { midjourneysImport } from './midjourneys.js';
import { optionsImport } from './options.js';
import { quotaDataImport } from './quota-data.js';
import { redemptionsImport } from './redemptions.js';
import { tasksImport } from './tasks.js';
import { tokensImport } from './tokens.js';
import { topUpsImport } from './top-ups.js';
import { usersImport } from './users.js';

/** Every table imported, in order (logs last: the biggest, and nothing refers to them). */
export function tableImports(): TableImport[] {
  const all = [
    usersImport(), optionsImport(), channelsImport(), tokensImport(), redemptionsImport(), topUpsImport(), midjourneysImport(),
    tasksImport(), quotaDataImport(), logsImport(),
  ];
  return all as unknown as TableImport[];
}

/** Source tables that are not copied, and why. */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  abilities: 'rebuilt from the channels',
  setups: 'the first-run marker of new-api; Switchyard has no setup wizard',
  user_subscriptions: 'MONEY: prepaid subscriptions held outside users.quota; carry them over by hand',
  subscription_plans: 'subscription plans are not supported',
  subscription_orders: 'subscription orders are not supported',
  subscription_plan_items: 'subscription plans are not supported',
  user_subscription_items: 'MONEY: what is left of prepaid subscriptions; carry it over by hand',
  two_fas: 'two-factor sign-in is not supported: users enrol again',
  two_fa_backup_codes: 'two-factor sign-in is not supported',
  passkey_credentials: 'passkeys are bound to the old host: users register again',
  checkins: 'check-in rewards are already in users.quota',
};
