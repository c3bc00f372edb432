import { useState } from 'react';
import { Button, Card, Col, Form, InputNumber, Row } from 'antd';
import { t } from '../../../lib/i18n';
import { notifyFirstError, toNumber, useFormSync, useOptionSettings } from './useOptionSettings';

const FIELDS = [
  { key: 'QuotaForNewUser', label: '新用户初始额度', extra: '注册时赠送的额度', placeholder: '例如：100' },
  { key: 'PreConsumedQuota', label: '请求预扣费额度', extra: '请求结束后多退少补', placeholder: '例如：500' },
  { key: 'QuotaForInviter', label: '邀请新用户奖励额度', extra: '计入邀请人的邀请额度，划转后可用', placeholder: '例如：2000' },
  { key: 'QuotaForInvitee', label: '新用户使用邀请码奖励额度', extra: '注册时填写邀请码的新用户获得', placeholder: '例如：1000' },
  { key: 'QuotaRemindThreshold', label: '额度提醒阈值', extra: '低于此额度时发送邮件提醒用户', placeholder: '例如：1000' },
] as const;

type Key = (typeof FIELDS)[number]['key'];
type Values = Record<Key, number | null>;

const fromOptions = (o: Record<string, string>): Values => Object.fromEntries(FIELDS.map((f) => [f.key, toNumber(o[f.key])])) as Values;

/**
 * The quota card of the operation tab: the starting quota of new users, the amount held back before a request is
 * settled, the invite rewards on both sides and the low-balance reminder. All are raw quota units (500000 = $1),
 * whole numbers, at least 0 (spec §5).
 */
export function QuotaSettingsCard() {
  const { options, save } = useOptionSettings();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const { markSaved } = useFormSync(form, options, fromOptions);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      if (await save(Object.fromEntries(FIELDS.map((f) => [f.key, String(values[f.key])])))) markSaved(values);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('额度设置')} style={{ marginBottom: 16 }}>
      <Form form={form} layout="vertical" name="quota-settings" onFinish={(v) => void submit(v)} onFinishFailed={notifyFirstError}>
        <Row gutter={16}>
          {FIELDS.map((f) => (
            <Col xs={24} md={12} lg={8} key={f.key}>
              <Form.Item
                name={f.key}
                label={t(f.label)}
                extra={t(f.extra)}
                rules={[
                  { required: true, message: t('请输入{name}', { name: t(f.label) }) },
                  { type: 'number', min: 0, message: t('{name}不能小于 0', { name: t(f.label) }) },
                ]}
              >
                <InputNumber min={0} precision={0} step={1} placeholder={t(f.placeholder)} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
          {t('保存额度设置')}
        </Button>
      </Form>
    </Card>
  );
}
