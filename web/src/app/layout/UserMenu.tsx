import { Button, Dropdown } from 'antd';
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth';
import { api } from '../../api/client';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';

/** The signed-in user's name with a menu holding logout. */
export function UserMenu() {
  const { user, clearUser } = useAuth();
  const navigate = useNavigate();
  if (!user) return null;
  const logout = async () => {
    try {
      await api.get('/api/user/logout', undefined, { silent: true });
    } catch {
      // Already shown; the local session is dropped regardless.
    }
    clearUser();
    notify.success(t('注销成功!'));
    void navigate('/login');
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [{ key: 'logout', icon: <LogoutOutlined />, label: t('退出') }],
        onClick: ({ key }) => {
          if (key === 'logout') void logout();
        },
      }}
    >
      <Button type="text" icon={<UserOutlined />}>
        {user.display_name || user.username}
      </Button>
    </Dropdown>
  );
}
