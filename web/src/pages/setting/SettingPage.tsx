import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { t } from '../../lib/i18n';
import { PersonalSetting } from './personal/PersonalSetting';

/**
 * Tabbed settings driven by ?tab=. Only the personal tab exists so far; the operation, system and other tabs
 * (super admin only) join this list when they are built.
 */
export default function SettingPage() {
  return (
    <SettingPageBody />
  );
}

function SettingPageBody() {
  const [params, setParams] = useSearchParams();
  const items = [{ key: 'personal', label: t('个人设置'), children: <PersonalSetting /> }];
  const requested = params.get('tab');
  const active = items.some((i) => i.key === requested) ? (requested as string) : 'personal';
  return (
    <Card>
      <Tabs activeKey={active} items={items} onChange={(key) => setParams({ tab: key })} />
    </Card>
  );
}
