import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { t } from '../../../lib/i18n';
import { checkJson, SHAPE_HINTS } from './jsonShapes';
import type { OptionField } from './optionFields';

const MONOSPACE = { fontFamily: 'monospace' } as const;

function rulesOf(f: OptionField): Rule[] {
  const label = t(f.label);
  switch (f.kind) {
    case 'number':
      return [
        { required: true, message: t('请输入{name}', { name: label }) },
        { type: 'number', min: f.min, message: t('{name}不能小于 {min}', { name: label, min: f.min }) },
        ...(f.max === undefined ? [] : [{ type: 'number' as const, max: f.max, message: t('{name}不能大于 {max}', { name: label, max: f.max }) }]),
      ];
    case 'json':
      return [
        {
          validator: (_, value: string | undefined) => {
            const checked = checkJson(value ?? '', f.shape);
            if (checked.ok) return Promise.resolve();
            return Promise.reject(new Error(checked.reason === 'syntax' ? t('不是合法的 JSON 字符串') : t(SHAPE_HINTS[f.shape])));
          },
        },
      ];
    case 'text':
      return f.url ? [{ type: 'url', message: t('请输入合法的链接') }] : [];
    default:
      return [];
  }
}

function control(f: OptionField, secretSet: boolean) {
  const placeholder = f.placeholder === undefined ? undefined : t(f.placeholder);
  switch (f.kind) {
    case 'switch':
      return <Switch aria-label={t(f.label)} />;
    case 'number':
      return (
        <InputNumber
          min={f.min}
          max={f.max}
          precision={f.integer ? 0 : undefined}
          addonAfter={f.unit ? t(f.unit) : undefined}
          placeholder={placeholder}
          style={{ width: '100%' }}
        />
      );
    case 'secret':
      return (
        <Input.Password
          autoComplete="new-password"
          visibilityToggle={false}
          placeholder={secretSet ? t('已设置，留空则保持不变') : (placeholder ?? t('敏感信息不会发送到前端显示'))}
        />
      );
    case 'json':
      return <Input.TextArea autoSize={{ minRows: 6, maxRows: 20 }} spellCheck={false} style={MONOSPACE} placeholder={placeholder} />;
    case 'lines':
    case 'textarea':
      return <Input.TextArea autoSize={{ minRows: f.rows ?? 4, maxRows: 16 }} placeholder={placeholder} />;
    case 'select':
      return <Select options={f.choices.map((c) => ({ value: c.value, label: t(c.label) }))} />;
    case 'tags':
      return <Select mode="tags" tokenSeparators={[',', ' ', '\n']} open={false} suffixIcon={null} placeholder={placeholder} />;
    default:
      return <Input placeholder={placeholder} />;
  }
}

const isWide = (f: OptionField) => f.wide || f.kind === 'json' || f.kind === 'lines' || f.kind === 'textarea' || f.kind === 'tags';

/** The controls of a list of option fields, laid out in a responsive grid (text areas take a whole row). */
export function OptionFields({ fields, secretsSet = {} }: { fields: readonly OptionField[]; secretsSet?: Record<string, boolean> }) {
  return (
    <Row gutter={16}>
      {fields.map((f) => (
        <Col key={f.key} xs={24} md={isWide(f) ? 24 : 12} lg={isWide(f) ? 24 : 8}>
          <Form.Item
            name={f.key}
            label={t(f.label)}
            extra={typeof f.extra === 'string' ? t(f.extra) : f.extra}
            valuePropName={f.kind === 'switch' ? 'checked' : 'value'}
            rules={rulesOf(f)}
          >
            {control(f, Boolean(secretsSet[f.key]))}
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}
