import { memo } from 'react';
import { Card, Form, Input, InputNumber, Select, Slider, Typography } from 'antd';
import { t } from '../../lib/i18n';
import { useUserGroups, useUserModels } from '../token/useTokens';
import { TEMPERATURE, type PlaygroundSettings } from './settings';

interface Props {
  settings: PlaygroundSettings;
  onChange: (patch: Partial<PlaygroundSettings>) => void;
}

/** The left panel: model, group, max_tokens, temperature and the system prompt. */
export const SettingsPanel = memo(function SettingsPanel({ settings, onChange }: Props) {
  const models = useUserModels();
  const groups = useUserGroups();
  const modelNames = models.data ?? [];
  // The chosen model stays offered even when the list no longer has it (the call then says why it fails).
  const modelOptions = (modelNames.includes(settings.model) ? modelNames : [settings.model, ...modelNames]).map((m) => ({ label: m, value: m }));
  const groupOptions = Object.entries(groups.data ?? {}).map(([group, info]) => ({
    value: group,
    label: `${group}（${info.desc}，${t('倍率')} ${info.ratio}）`,
  }));

  return (
    <Card title={t('设置')} size="small">
      <Form layout="vertical" component="div">
        <Form.Item label={t('模型')} htmlFor="playground-model">
          <Select
            id="playground-model"
            showSearch
            value={settings.model}
            loading={models.isLoading}
            options={modelOptions}
            onChange={(model: string) => onChange({ model })}
          />
        </Form.Item>
        <Form.Item label={t('分组')} htmlFor="playground-group">
          <Select
            id="playground-group"
            value={settings.group || undefined}
            placeholder={t('用户分组')}
            allowClear
            loading={groups.isLoading}
            options={groupOptions}
            onChange={(group?: string) => onChange({ group: group ?? '' })}
          />
        </Form.Item>
        <Form.Item label="max_tokens" htmlFor="playground-max-tokens" extra={t('0 表示不限制')}>
          <InputNumber
            id="playground-max-tokens"
            min={0}
            precision={0}
            style={{ width: '100%' }}
            value={settings.max_tokens}
            onChange={(v) => onChange({ max_tokens: typeof v === 'number' && v > 0 ? v : 0 })}
          />
        </Form.Item>
        <Form.Item
          label={
            <span>
              temperature <Typography.Text type="secondary">{settings.temperature}</Typography.Text>
            </span>
          }
        >
          <Slider
            ariaLabelForHandle="temperature"
            min={TEMPERATURE.min}
            max={TEMPERATURE.max}
            step={TEMPERATURE.step}
            value={settings.temperature}
            onChange={(v: number) => onChange({ temperature: Math.round(v * 10) / 10 })}
          />
        </Form.Item>
        <Form.Item label={t('系统提示词')} htmlFor="playground-system">
          <Input.TextArea
            id="playground-system"
            autoSize={{ minRows: 4, maxRows: 12 }}
            value={settings.systemPrompt}
            onChange={(e) => onChange({ systemPrompt: e.target.value })}
          />
        </Form.Item>
      </Form>
    </Card>
  );
});
