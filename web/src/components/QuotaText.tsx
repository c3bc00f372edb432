import { Typography } from 'antd';
import { formatBalance, formatQuota } from '@switchyard/shared';
import { useQuotaDisplay } from '../app/status';

interface Props {
  quota: number;
  /** Balance style: raw units shorten only from 100000 on (spec §9). */
  balance?: boolean;
  digits?: number;
  type?: 'secondary' | 'success' | 'warning' | 'danger';
}

/** A quota amount in dollars or raw units, as the server status says; the exact units show on hover. */
export function QuotaText({ quota, balance, digits, type }: Props) {
  const display = useQuotaDisplay();
  const text = balance ? formatBalance(quota, display) : formatQuota(quota, display, digits);
  return (
    <Typography.Text type={type} title={String(quota)}>
      {text}
    </Typography.Text>
  );
}
