import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'WorkerUrl', kind: 'text', url: true, label: 'Worker 地址', placeholder: '例如：https://workername.yourdomain.workers.dev', extra: '不填写则不启用代理' },
  { key: 'WorkerValidKey', kind: 'secret', label: 'Worker 密钥' },
];

/** The system tab's proxy card: image downloads go through this Cloudflare Worker when it is set. */
export function WorkerSettingsCard() {
  return (
    <OptionFormCard
      title="代理设置"
      name="worker-settings"
      description="图片等外部资源通过 Worker 代理下载（支持 new-api-worker）"
      fields={FIELDS}
      saveLabel="更新 Worker 设置"
    />
  );
}
