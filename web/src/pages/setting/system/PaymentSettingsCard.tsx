import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { optionApi } from '../../../api/option';
import { Button, Card, Col, Form, Input, InputNumber, Row, Typography } from 'antd';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { notifyFirstError, useFormSync, useOptionSettings } from '../operation/useOptionSettings';
import { toNumber } from '../form/optionFields';
import { trimAddress } from './GeneralSystemCard';
import { checkJson, prettyJson } from '../form/jsonShapes';
import { SECRET_STATUS_QUERY_KEY } from '../form/useOptionForm';

interface Values {
  PayAddress: string;
  EpayId: string;
  /** Write only: blank on load, sent only when something is typed. */
  EpayKey: string;
  CustomCallbackAddress: string;
  Price: number | null;
  MinTopUp: number | null;
  TopupGroupRatio: string;
}

const RATIO_JSON_ERROR = '充值分组倍率不是合法的 JSON 字符串';

/** The group → ratio map, or null when the text is not a JSON object of numbers at least 0. */
function parseGroupRatio(text: string): Record<string, number> | null {
  const checked = checkJson(text, 'numberMap');
  return checked.ok ? (checked.value as Record<string, number>) : null;
}

const fromOptions = (o: Record<string, string>): Values => ({
  PayAddress: o.PayAddress ?? '',
  EpayId: o.EpayId ?? '',
  EpayKey: '',
  CustomCallbackAddress: o.CustomCallbackAddress ?? '',
  Price: toNumber(o.Price),
  MinTopUp: toNumber(o.MinTopUp),
  TopupGroupRatio: prettyJson(o.TopupGroupRatio),
});

/**
 * The payment card of the system tab (epay). Online top-up turns on once the address, merchant id and merchant
 * key are all set. The key is a secret: the server never sends it back, the field stays blank and a blank field
 * leaves the stored key alone. Saving needs the server address first ('请先填写服务器地址'), as it is the default
 * callback address.
 */
export function PaymentSettingsCard() {
  const { options, save } = useOptionSettings();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const { markSaved } = useFormSync(form, options, fromOptions);
  const queryClient = useQueryClient();
  const secrets = useQuery({ queryKey: SECRET_STATUS_QUERY_KEY, queryFn: optionApi.secretStatus });

  const submit = async (values: Values) => {
    if (!options?.ServerAddress) {
      notify.error(t('请先填写服务器地址'));
      return;
    }
    const ratio = parseGroupRatio(values.TopupGroupRatio);
    if (!ratio) {
      notify.error(t(RATIO_JSON_ERROR));
      return;
    }
    const next: Record<string, string> = {
      PayAddress: trimAddress(values.PayAddress),
      EpayId: values.EpayId.trim(),
      CustomCallbackAddress: trimAddress(values.CustomCallbackAddress),
      Price: String(values.Price),
      MinTopUp: String(values.MinTopUp),
      TopupGroupRatio: JSON.stringify(ratio),
    };
    const key = values.EpayKey.trim();
    if (key !== '') next.EpayKey = key;
    setSaving(true);
    try {
      if (await save(next)) {
        markSaved({
          PayAddress: next.PayAddress,
          EpayId: next.EpayId,
          EpayKey: '',
          CustomCallbackAddress: next.CustomCallbackAddress,
          TopupGroupRatio: JSON.stringify(ratio, null, 2),
        });
      }
      if (next.EpayKey) await queryClient.invalidateQueries({ queryKey: SECRET_STATUS_QUERY_KEY });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('支付设置')} style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">
        {t('当前仅支持易支付接口，默认使用上方服务器地址作为回调地址！')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" name="payment-settings" onFinish={(v) => void submit(v)} onFinishFailed={notifyFirstError}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="PayAddress" label={t('支付地址')} rules={[{ type: 'url', message: t('请输入合法的支付地址') }]}>
              <Input placeholder={t('例如：https://yourdomain.com')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="EpayId" label={t('易支付商户ID')}>
              <Input placeholder={t('例如：0001')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="EpayKey" label={t('易支付商户密钥')} extra={t('已保存的密钥不会显示；留空则保持不变')}>
              <Input.Password autoComplete="new-password" placeholder={secrets.data?.EpayKey ? t('已设置，留空则保持不变') : t('敏感信息不会发送到前端显示')} visibilityToggle={false} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="CustomCallbackAddress"
              label={t('回调地址')}
              extra={t('留空则使用服务器地址')}
              rules={[{ type: 'url', message: t('请输入合法的回调地址') }]}
            >
              <Input placeholder={t('例如：https://yourdomain.com')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="Price"
              label={t('充值价格（x元/美金）')}
              rules={[
                { required: true, message: t('请输入充值价格') },
                { type: 'number', min: 0.01, message: t('充值价格必须大于 0') },
              ]}
            >
              <InputNumber min={0.01} step={0.1} placeholder={t('例如：7，就是7元/美金')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="MinTopUp"
              label={t('最低充值美元数量')}
              rules={[
                { required: true, message: t('请输入最低充值美元数量') },
                { type: 'number', min: 1, message: t('最低充值美元数量不能小于 1') },
              ]}
            >
              <InputNumber min={1} precision={0} placeholder={t('例如：2，就是最低充值2$')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="TopupGroupRatio"
          label={t('充值分组倍率')}
          extra={t('为一个 JSON 文本，键为组名称，值为倍率')}
          rules={[
            {
              validator: (_, value: string) =>
                parseGroupRatio(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t(RATIO_JSON_ERROR))),
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
          {t('更新支付设置')}
        </Button>
      </Form>
    </Card>
  );
}
