import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { StatusData } from '@switchyard/shared';
import { DEFAULT_QUOTA_PER_UNIT, type QuotaDisplay } from '@switchyard/shared';
import { getStoredStatus, storeStatus } from '../lib/storage';
import { notify } from '../lib/notify';
import { t } from '../lib/i18n';
import { imageUrl } from '../lib/safeUrl';

type Status = Partial<StatusData>;

interface StatusState {
  status: Status;
  /** Fetches /api/status again; resolves with the fresh record (null when the server could not be reached). */
  reload(): Promise<StatusData | null>;
}

const StatusContext = createContext<StatusState | null>(null);

async function fetchStatus(): Promise<StatusData | null> {
  try {
    const res = await fetch('/api/status');
    const body = (await res.json()) as { success: boolean; data: StatusData };
    return body.success ? body.data : null;
  } catch {
    return null;
  }
}

/** Loads /api/status once at start (cached copy first, so the shell renders at once) and stores it. */
export function StatusProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>(() => getStoredStatus());
  const reload = async (): Promise<StatusData | null> => {
    const fresh = await fetchStatus();
    if (fresh) {
      storeStatus(fresh);
      setStatus(fresh);
    } else {
      notify.error(t('无法正常连接至服务器！'));
    }
    return fresh;
  };
  useEffect(() => {
    void reload();
  }, []);
  useSiteIdentity(status);
  return <StatusContext.Provider value={{ status, reload }}>{children}</StatusContext.Provider>;
}

export function useStatus(): StatusState {
  const ctx = useContext(StatusContext);
  if (!ctx) throw new Error('useStatus outside StatusProvider');
  return ctx;
}

/** How quota amounts are shown, from the server status. */
export function useQuotaDisplay(): QuotaDisplay {
  const { status } = useStatus();
  return {
    quotaPerUnit: status.quota_per_unit || DEFAULT_QUOTA_PER_UNIT,
    displayInCurrency: status.display_in_currency ?? true,
  };
}

/** The configured logo when it is an image address (web or inline), else the built-in one. */
export const siteLogo = (status: Partial<Pick<StatusData, 'logo'>>): string => imageUrl(status.logo, '/logo.svg');

/** The browser tab follows the configured system name and logo (title and favicon). */
function useSiteIdentity(status: Status): void {
  const name = status.system_name || 'Switchyard';
  const logo = siteLogo(status);
  useEffect(() => {
    document.title = name;
  }, [name]);
  useEffect(() => {
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) icon.href = logo;
  }, [logo]);
}
