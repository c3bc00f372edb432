import { Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { userApi } from '../../../api/user';
import { AccountCard } from './AccountCard';
import { InviteCard } from './InviteCard';
import { ProfileCard } from './ProfileCard';

export function PersonalSetting() {
  const self = useQuery({ queryKey: ['user-self'], queryFn: userApi.self });
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <ProfileCard self={self.data} loading={self.isLoading} />
      <InviteCard self={self.data} />
      <AccountCard username={self.data?.username} />
    </Space>
  );
}
