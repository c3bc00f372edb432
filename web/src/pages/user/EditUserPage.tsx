import { Card } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { t } from '../../lib/i18n';
import { EditUserForm } from './EditUserForm';
import { SelfEditForm } from './SelfEditForm';

/** /user/edit/:id edits that user (admin); /user/edit edits the signed-in user's own profile. */
export default function EditUserPage() {
  return (
    <EditUserPageBody />
  );
}

function EditUserPageBody() {
  const { id } = useParams();
  const navigate = useNavigate();
  const userId = id === undefined ? null : Number(id);

  if (userId === null) {
    return (
      <Card title={t('更新个人信息')} style={{ maxWidth: 640 }}>
        <SelfEditForm onCancel={() => navigate(-1)} />
      </Card>
    );
  }
  if (!Number.isInteger(userId) || userId <= 0) {
    return <Card>{t('用户不存在')}</Card>;
  }
  return (
    <Card title={t('更新用户信息')} style={{ maxWidth: 640 }}>
      <EditUserForm id={userId} onCancel={() => navigate('/user')} onSaved={() => navigate('/user')} />
    </Card>
  );
}
