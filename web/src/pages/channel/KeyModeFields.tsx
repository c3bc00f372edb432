import { Form, Radio, Space } from 'antd';
import type { CreateMode } from '../../api/channel';
import { t } from '../../lib/i18n';

/**
 * On create: what several keys (one per line) make — one channel each, or one multi-key channel that picks a key
 * per call, at random or in turn.
 */
export function KeyModeFields({ value, onChange }: { value: CreateMode; onChange(next: CreateMode): void }) {
  return (
    <Space size={24} wrap>
      <Form.Item label={t('密钥模式')}>
        <Radio.Group
          value={value.mode}
          onChange={(e) => onChange({ ...value, mode: e.target.value as CreateMode['mode'] })}
          options={[
            { value: 'batch', label: t('批量创建') },
            { value: 'multi_to_single', label: t('多密钥渠道') },
          ]}
        />
      </Form.Item>
      {value.mode === 'multi_to_single' && (
        <Form.Item label={t('密钥选择方式')}>
          <Radio.Group
            value={value.multi_key_mode}
            onChange={(e) => onChange({ ...value, multi_key_mode: e.target.value as CreateMode['multi_key_mode'] })}
            options={[
              { value: 'random', label: t('随机') },
              { value: 'polling', label: t('轮询') },
            ]}
          />
        </Form.Item>
      )}
    </Space>
  );
}

/** The key field's hint for each create mode. */
export const keyModeHint = (mode: CreateMode['mode']): string =>
  mode === 'multi_to_single' ? t('一行一个密钥：所有密钥放入同一个渠道，每次请求选用其中一个。') : t('一行一个密钥：每个密钥都会创建一个渠道。');
