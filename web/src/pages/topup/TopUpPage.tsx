import { Card, Col, Row, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatBalance, formatQuota } from '@switchyard/shared';
import { userApi } from '../../api/user';
import { useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';
import { OnlineTopUpCard } from './OnlineTopUpCard';
import { RedeemCard } from './RedeemCard';

/** My wallet (spec §2 Wallet): balance, the redeem box and online payment. */
export default function TopUpPage() {
  const display = useQuotaDisplay();
  // Shared with the personal settings page, so a redeem refreshes both.
  const self = useQuery({ queryKey: ['user-self'], queryFn: userApi.self });
  const user = self.data;

  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card title={t('钱包')} loading={self.isPending}>
          <Row gutter={[16, 16]}>
            <Figure title={t('当前余额')} value={user ? formatBalance(user.quota, display) : '-'} strong />
            <Figure title={t('历史消耗')} value={user ? formatQuota(user.used_quota, display) : '-'} />
            <Figure title={t('请求次数')} value={user?.request_count ?? '-'} />
          </Row>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <RedeemCard />
      </Col>
      <Col xs={24} lg={12}>
        <OnlineTopUpCard />
      </Col>
    </Row>
  );
}

/** One figure of the wallet, a labelled region so assistive technology (and tests) can find it by name. */
function Figure({ title, value, strong }: { title: string; value: string | number; strong?: boolean }) {
  return (
    <Col xs={24} sm={8}>
      <section aria-label={title}>
        <Statistic title={title} value={value} styles={strong ? { content: { fontWeight: 600 } } : undefined} />
      </section>
    </Col>
  );
}
