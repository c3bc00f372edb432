import { useEffect, useState } from 'react';
import { Button, Card, Descriptions, Form, InputNumber, Modal, Space, Typography } from 'antd';
import { minTopUpAmount, type PaymentMethod } from '@switchyard/shared';
import { submitPayForm, topupApi } from '../../api/topup';
import { useQuotaDisplay, useStatus } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';

const METHOD_LABELS: Record<PaymentMethod, string> = { zfb: '支付宝', wx: '微信' };

/** How long typing may pause before the price is asked for. */
const PREVIEW_DELAY_MS = 300;

/**
 * Online payment through epay: an amount (dollars, or raw quota when amounts do not show in currency), its price
 * from the server, and a confirmation before the browser leaves for the payment page.
 */
export function OnlineTopUpCard() {
  const display = useQuotaDisplay();
  const { status } = useStatus();
  const enabled = status.enable_online_topup === true;
  const minAmount = minTopUpAmount(status.min_topup ?? 1, display);
  // Untouched, the amount follows the minimum (which arrives with the status record).
  const [typed, setTyped] = useState<number | null>(null);
  const amount = typed ?? minAmount;
  const [price, setPrice] = useState<{ amount: number; yuan: string } | null>(null);
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [paying, setPaying] = useState(false);

  useEffect(() => {
    if (!enabled || amount < minAmount) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void topupApi
        .price(amount)
        .then((res) => {
          if (cancelled) return;
          if (res.success) {
            setPrice({ amount, yuan: String(res.data) });
          } else {
            setPrice(null);
            notify.error(t('错误：{detail}', { detail: res.message }));
          }
        })
        .catch(() => {
          // The API client has shown the failure.
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [enabled, amount, minAmount]);

  const shownPrice = enabled && price?.amount === amount ? price.yuan : null;
  const amountText = display.displayInCurrency ? `$${amount}` : String(amount);

  const start = (m: PaymentMethod) => {
    if (!enabled) {
      notify.error(t('管理员未开启在线充值！'));
      return;
    }
    if (amount < minAmount) {
      notify.error(t('充值数量不能小于{min}', { min: minAmount }));
      return;
    }
    setMethod(m);
  };

  const confirm = async () => {
    if (method === null) return;
    setPaying(true);
    try {
      submitPayForm(await topupApi.pay(amount, method));
    } catch {
      // The API client has shown the failure.
    } finally {
      setPaying(false);
      setMethod(null);
    }
  };

  return (
    <Card title={t('在线充值')} style={{ height: '100%' }}>
      <Form layout="vertical">
        <Form.Item label={t('充值数量')} htmlFor="topup-amount" style={{ marginBottom: 8 }}>
          <InputNumber
            id="topup-amount"
            value={amount}
            precision={0}
            prefix={display.displayInCurrency ? '$' : undefined}
            style={{ width: '100%' }}
            placeholder={t('充值数量，最低 {min}', { min: minAmount })}
            onChange={(v) => setTyped(typeof v === 'number' && v >= 1 ? Math.floor(v) : 1)}
          />
        </Form.Item>
        <Typography.Paragraph>
          {t('实付金额：')}
          <Typography.Text strong>{shownPrice === null ? '-' : t('{price} 元', { price: shownPrice })}</Typography.Text>
        </Typography.Paragraph>
        <Space wrap>
          <Button type="primary" onClick={() => start('zfb')}>
            {t('支付宝')}
          </Button>
          <Button color="green" variant="solid" onClick={() => start('wx')}>
            {t('微信')}
          </Button>
        </Space>
      </Form>
      <Modal
        open={method !== null}
        title={t('确定要充值吗')}
        okText={t('确定')}
        cancelText={t('取消')}
        confirmLoading={paying}
        onOk={() => void confirm()}
        onCancel={() => setMethod(null)}
        centered
      >
        <Descriptions
          column={1}
          items={[
            { key: 'amount', label: t('充值数量'), children: amountText },
            { key: 'price', label: t('实付金额'), children: shownPrice === null ? '-' : t('{price} 元', { price: shownPrice }) },
            { key: 'method', label: t('支付方式'), children: method ? t(METHOD_LABELS[method]) : '' },
          ]}
        />
      </Modal>
    </Card>
  );
}
