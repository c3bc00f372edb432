import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { t } from '../../lib/i18n';
import { PersonalSetting } from './personal/PersonalSetting';
import { OperationSetting } from './operation/OperationSetting';
import { SystemSetting } from './system/SystemSetting';
import { OtherSetting } from './other/OtherSetting';
import { isRoot } from '@switchyard/shared';
import { useAuth } from '../../app/auth';

/** Tabbed settings driven by ?tab=: personal for everyone; operation, system and other for super admins. */
export default function SettingPage() {
  return (
    <SettingPageBody />
  );
}

function SettingPageBody() {
  const [params, setParams] = useSearchParams();
  const { user } = useAuth();
  const items = [{ key: 'personal', label: t('个人设置'), children: <PersonalSetting /> }];
  if (isRoot(user?.role)) {
    items.push(
      { key: 'operation', label: t('运营设置'), children: <OperationSetting /> },
      { key: 'system', label: t('系统设置'), children: <SystemSetting /> },
      { key: 'other', label: t('其他设置'), children: <OtherSetting /> },
    );
  }
  const requested = params.get('tab');
  const active = items.some((i) => i.key === requested) ? (requested as string) : 'personal';
  return (
    <Card>
      <Tabs activeKey={active} items={items} onChange={(key) => setParams({ tab: key })} />
    </Card>
  );
}
