import { useState } from 'react';
import { Button, Card, Form, Popconfirm, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { optionApi } from '../../../api/option';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { OptionFields } from '../form/OptionFields';
import type { OptionField } from '../form/optionFields';
import { useOptionForm } from '../form/useOptionForm';
import { OPTIONS_QUERY_KEY } from './useOptionSettings';

const FIELDS: readonly OptionField[] = [
  { key: 'ModelPrice', kind: 'json', shape: 'numberMap', label: '模型固定价格', extra: '一次调用消耗多少美元，优先级大于模型倍率' },
  { key: 'ModelRatio', kind: 'json', shape: 'numberMap', label: '模型倍率', extra: '倍率 1 = 每百万输入 token 2 美元' },
  { key: 'CacheRatio', kind: 'json', shape: 'numberMap', label: '缓存倍率', extra: '命中提示缓存的输入 token 按此倍率计费' },
  { key: 'CacheCreationRatio', kind: 'json', shape: 'numberMap', label: '缓存写入倍率', extra: '写入提示缓存（5 分钟）的输入 token 按此倍率计费；未设置时 Claude 为 1.25，其余为 1' },
  { key: 'CacheCreation1hRatio', kind: 'json', shape: 'numberMap', label: '1 小时缓存写入倍率', extra: '写入 1 小时提示缓存的输入 token 按此倍率计费；未设置时 Claude 为 2，其余为 1' },
  { key: 'CompletionRatio', kind: 'json', shape: 'numberMap', label: '模型补全倍率（仅对自定义模型有效）', extra: '输出 token 相对输入 token 的倍率' },
  {
    key: 'GroupRatio',
    kind: 'json',
    shape: 'numberMap',
    label: '分组倍率',
    extra: '例如：{"vip": 0.5, "test": 1}，表示 vip 分组的倍率为 0.5，test 分组的倍率为 1',
  },
  {
    key: 'UserUsableGroups',
    kind: 'json',
    shape: 'stringMap',
    label: '用户可选分组',
    extra: '用户新建令牌时可选的分组，例如：{"vip": "VIP 用户", "test": "测试"}',
  },
];

/**
 * The operation tab's ratio card: prices and ratios as JSON text, checked before saving ('不是合法的 JSON 字符串'
 * under the field, '请检查输入' as the toast), and a confirmed reset of the model ratios to the built-in table.
 */
export function RatioSettingsCard() {
  const queryClient = useQueryClient();
  const { form, options, saving, submit, onFinishFailed, reset } = useOptionForm(FIELDS, '请检查输入');
  const [resetting, setResetting] = useState(false);

  const resetModelRatio = async () => {
    setResetting(true);
    try {
      await optionApi.resetModelRatio();
      const fresh = await queryClient.fetchQuery({ queryKey: OPTIONS_QUERY_KEY, queryFn: optionApi.list });
      reset(['ModelRatio'], fresh);
      notify.success(t('重置模型倍率成功'));
    } catch {
      // The API client has shown the failure.
    } finally {
      setResetting(false);
    }
  };

  return (
    <Card title={t('倍率设置')} style={{ marginBottom: 16 }}>
      <Form form={form} layout="vertical" name="ratio-settings" onFinish={(v) => void submit(v)} onFinishFailed={onFinishFailed}>
        <OptionFields fields={FIELDS} />
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
            {t('保存倍率设置')}
          </Button>
          <Popconfirm
            title={t('确定重置模型倍率吗？')}
            description={t('模型倍率将恢复为内置的默认值，此操作不可撤销。')}
            okText={t('重置')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            onConfirm={() => resetModelRatio()}
          >
            <Button danger loading={resetting}>
              {t('重置模型倍率')}
            </Button>
          </Popconfirm>
        </Space>
      </Form>
    </Card>
  );
}
