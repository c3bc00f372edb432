import { useState } from 'react';
import { App, Button, Card, Input, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { formatQuota } from '@switchyard/shared';
import { topupApi } from '../../api/topup';
import { useQuotaDisplay, useStatus } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { webUrl } from '../../lib/safeUrl';

/** Redeem a code for quota; the link to buy codes is the one the super admin set (TopUpLink). */
export function RedeemCard() {
  const display = useQuotaDisplay();
  const { status } = useStatus();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const redeem = async () => {
    const key = code.trim();
    if (key === '') {
      notify.info(t('请输入兑换码！'));
      return;
    }
    setBusy(true);
    try {
      const quota = await topupApi.redeem(key);
      setCode('');
      modal.success({
        title: t('兑换成功！'),
        content: t('成功兑换额度：{quota}', { quota: formatQuota(quota, display) }),
        centered: true,
        okText: t('确定'),
      });
      await queryClient.invalidateQueries({ queryKey: ['user-self'] });
    } catch {
      // The API client has shown the failure ('请求失败' when the server cannot be reached).
    } finally {
      setBusy(false);
    }
  };

  const openTopUpLink = () => {
    const link = status.top_up_link ?? '';
    if (link === '') {
      notify.error(t('超级管理员未设置充值链接！'));
      return;
    }
    const page = webUrl(link);
    if (page) window.open(page, '_blank', 'noopener');
    else notify.error(t('充值链接配置错误，请联系管理员'));
  };

  return (
    <Card title={t('兑换余额')} style={{ height: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          aria-label={t('兑换码')}
          placeholder={t('请输入兑换码')}
          value={code}
          allowClear
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void redeem()}
        />
        <Button type="primary" loading={busy} onClick={() => void redeem()}>
          {t('兑换')}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('还没有兑换码？')}
        <Button type="link" size="small" onClick={openTopUpLink}>
          {t('获取兑换码')}
        </Button>
      </Typography.Paragraph>
    </Card>
  );
}
